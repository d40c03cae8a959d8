import { useCallback, useRef, useState } from 'react';
import type { MeasurementSystem } from '../../../../../shared/health';
import { HEALTH_MESSAGES } from '../../../../../shared/health-messages';
import { EmptyState } from '../../../components/empty-state';
import { useKeepFocusAfterMore, useKeepFocusIn } from '../../../lib/keep-focus';
import { summarize, targetLabel, type Entry } from '../entries';
import { formatDateTime } from '../health-format';
import { busyButton } from '../../../lib/busy-button';

/** How many entries show at first, and how many more each 'Show more' adds. */
export const PAGE_SIZE = 20;

interface RecentEntriesProps {
  /** Newest first (see `mergeEntries`). */
  entries: readonly Entry[];
  system: MeasurementSystem;
  /** Omit for a read-only list (someone else's records). */
  onDelete?: (entry: Entry) => void;
  /** The entries being deleted, whose buttons wait. */
  deleting?: ReadonlyMap<string, unknown>;
  /** The list's accessible name, unique on the page. */
  label?: string;
  /** Said when there is no entry. */
  emptyText?: string;
}

/** Measurements and logs, newest first, readings off target marked in words. */
export function RecentEntries({
  entries,
  system,
  onDelete,
  deleting,
  label = 'Entries, newest first',
  emptyText = HEALTH_MESSAGES.noEntries,
}: RecentEntriesProps) {
  const [shown, setShown] = useState(PAGE_SIZE);
  const list = useRef<HTMLElement>(null);
  const holdList = useCallback((element: HTMLElement | null) => {
    list.current = element;
  }, []);
  // A deleted entry's button leaves with its row: focus stays in the list, or on what replaces it.
  useKeepFocusIn(list, entries);
  // 'Show more' leaves once all are shown: focus stays on the list rather than falling to the page.
  const showMore = useKeepFocusAfterMore(list, entries.length > shown);
  if (!entries.length) return <EmptyState ref={holdList}>{emptyText}</EmptyState>;
  return (
    <>
      <ul className="entry-list" ref={holdList} tabIndex={-1} aria-label={label}>
        {entries.slice(0, shown).map((entry) => {
          const { title, detail } = summarize(entry, system);
          const target = entry.source === 'measurement' ? targetLabel(entry.measurement) : undefined;
          const when = formatDateTime(entry.at);
          return (
            <li key={`${entry.source}-${entry.id}`} className="entry">
              <div className="entry__body">
                <p className="entry__title">
                  {title}
                  {target && <span className="badge badge--warning">{target}</span>}
                </p>
                <p className="entry__detail">{detail}</p>
                <p className="entry__time">
                  <time dateTime={entry.at}>{when}</time>
                </p>
              </div>
              {onDelete && (
                <button
                  type="button"
                  className="button button--danger button--small"
                  // Starts with the visible word (WCAG 2.5.3), then says which entry.
                  aria-label={`Delete ${title} from ${when}`}
                  {...busyButton(deleting?.has(entry.id) ?? false, () => onDelete(entry))}
                >
                  Delete
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {entries.length > shown && (
        <button
          ref={showMore}
          type="button"
          className="button button--secondary"
          onClick={() => setShown((n) => n + PAGE_SIZE)}
        >
          Show more ({entries.length - shown} left)
        </button>
      )}
    </>
  );
}
