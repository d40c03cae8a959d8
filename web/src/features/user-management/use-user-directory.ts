import { useMemo } from 'react';
import type { DirectoryCounts } from '../../../../shared/directory';
import type { AdminUserListItem, Invitation } from '../../../../shared/schemas';
import { fullName } from '../../lib/format';
import { useOpenInvitations } from './api/get-invitations';
import { useCoaches, usePeople } from './api/get-users';
import type { CoachChoice } from './components/assign-coach-modal';
import type { TabId } from './components/user-tabs';
import { mergeEntries, NO_STREAM, type Stream, type StreamName, type UserEntry } from './merge-entries';

/** What one tab shows and how it reads on. */
export interface TabView {
  /** null while the two listings answer different searches (the second is still loading). */
  entries: UserEntry[] | null;
  /** Some listing it shows has pages not read yet. */
  hasMore: boolean;
  /** Reads the next page of the listings that hold the tab back. */
  loadMore: () => void;
  loadingMore: boolean;
  /** Load more waits while another search's answer is still on screen. */
  canLoadMore: boolean;
  /** Why reading on failed, if the last try did. */
  loadMoreError: Error | null;
}

/** Whether the last page read says there is another. */
const hasMore = (pages: readonly { nextCursor?: string | undefined }[] | undefined): boolean =>
  pages?.at(-1)?.nextCursor !== undefined;

/**
 * The admin lists of User Management: the people and the open invitations, each read page by page
 * for search `q` ('' for everyone), merged per tab; the coaches; and the directory's counts.
 */
export const useUserDirectory = (q: string) => {
  const people = usePeople(q);
  const invitations = useOpenInvitations(q);
  const coachList = useCoaches();
  const peoplePages = people.data?.pages;
  const invitationPages = invitations.data?.pages;

  const merged = useMemo(() => {
    const peopleStream: Stream<AdminUserListItem> = {
      items: peoplePages?.flatMap((page) => page.users) ?? [],
      hasMore: hasMore(peoplePages),
    };
    const invitationStream: Stream<Invitation> = {
      items: invitationPages?.flatMap((page) => page.invitations) ?? [],
      hasMore: hasMore(invitationPages),
    };
    // The search each listing's pages answer: the one asked for, or the last one while it loads.
    const peopleSearch = peoplePages?.[0]?.q ?? q;
    const invitationSearch = invitationPages?.[0]?.q ?? q;
    return {
      all:
        peopleSearch === invitationSearch
          ? mergeEntries(peopleStream, invitationStream, { search: peopleSearch !== '' })
          : null,
      pending: mergeEntries(NO_STREAM, invitationStream, { search: invitationSearch !== '' }),
      activated: mergeEntries(peopleStream, NO_STREAM, { search: peopleSearch !== '' }),
    };
  }, [peoplePages, invitationPages, q]);

  const streams = { people, invitations };
  const viewOf = (tab: TabId): TabView => {
    const listed = merged[tab];
    const limitedBy: StreamName[] = listed?.limitedBy ?? [];
    const reading = limitedBy.map((name) => streams[name]);
    return {
      entries: listed?.entries ?? null,
      hasMore: limitedBy.length > 0,
      loadMore: () => {
        for (const query of reading) if (!query.isFetchingNextPage) void query.fetchNextPage();
      },
      loadingMore: reading.some((query) => query.isFetchingNextPage),
      canLoadMore: listed !== null && reading.every((query) => !query.isPlaceholderData),
      loadMoreError: reading.find((query) => query.isFetchNextPageError)?.error ?? null,
    };
  };

  const coaches = useMemo(
    () =>
      (coachList.data ?? [])
        .map((user): CoachChoice => ({
          userId: user.userId,
          name: fullName(user),
          email: user.email,
          disabled: user.status === 'disabled',
        }))
        .sort((a, b) => (a.name || a.email).localeCompare(b.name || b.email)),
    [coachList.data],
  );
  // A client's coach is a member of coaches: named by name, else email.
  const coachNames = useMemo(
    () => new Map(coaches.map((coach) => [coach.userId, coach.name || coach.email])),
    [coaches],
  );

  // Every page carries the counts as they were when it was read: the page read last has the newest.
  const counts: DirectoryCounts | undefined = peoplePages?.at(-1)?.counts;
  const listError = (query: typeof people | typeof invitations) =>
    query.isError && !query.isFetchNextPageError ? query.error : null;

  return {
    views: { all: viewOf('all'), pending: viewOf('pending'), activated: viewOf('activated') },
    /** The tabs' and the stat cards' numbers, from the server's counters (never by counting). */
    tabCounts: counts && {
      all: counts.people + counts.pendingInvitations,
      pending: counts.pendingInvitations,
      activated: counts.people,
    },
    coaches,
    coachNames,
    isPending: people.isPending || invitations.isPending || coachList.isPending,
    /** A search's answer is still loading while the last one stays on screen. */
    isSearching: people.isPlaceholderData || invitations.isPlaceholderData,
    error: listError(people) ?? listError(invitations) ?? coachList.error,
    refetch: () => Promise.all([people.refetch(), invitations.refetch(), coachList.refetch()]),
  };
};
