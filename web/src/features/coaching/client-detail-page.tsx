import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { COACHING_MESSAGES } from '../../../../shared/coaching';
import { Alert } from '../../components/alert';
import { PageHeader } from '../../components/page-header';
import { Spinner } from '../../components/spinner';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/errors';
import { displayName } from '../../lib/format';
import { useCoachClients } from './api/get-coach-clients';
import { useClientNotes } from './api/get-client-notes';
import { NoteForm } from './components/note-form';
import { NotesThread } from './components/notes-thread';
import { LoadFailed } from '../../components/load-failed';
import { coachClientsQueryKey } from '../../lib/query-keys';

/** Not worded by SPEC-2 (docs/decisions/043-coaching-screens.md). */
const LOAD_FAILED = 'Could not load your clients';
const NOTES_FAILED = 'Could not load the notes';

interface ClientDetailPageProps {
  userId: string;
  /** The client's charts and entries (the health feature's), shown once the client is known. */
  records: ReactNode;
}

const BackLink = () => (
  <Link to={paths.clients} className="back-link">
    Back to My Clients
  </Link>
);

/**
 * A client's page for their coach: the client's records, read-only, and the notes thread with a
 * form for a new note. Only a client in the coach's list is shown; a 403 from the server (the
 * assignment changed meanwhile) refreshes that list, and the page then says so.
 */
export function ClientDetailPage({ userId, records }: ClientDetailPageProps) {
  const clients = useCoachClients();
  const client = clients.data?.find((candidate) => candidate.userId === userId);

  if (clients.isError) {
    return (
      <>
        <PageHeader title="Client" />
        <LoadFailed title={LOAD_FAILED} error={clients.error} onRetry={() => clients.refetch()} />
      </>
    );
  }
  if (clients.isPending) return <Spinner />;
  if (!client) {
    return (
      <>
        <PageHeader title="Client" />
        <Alert tone="warning" title={COACHING_MESSAGES.notYourClient}>
          <p>You see the records and notes of your own clients only. An admin assigns clients to coaches.</p>
        </Alert>
        <BackLink />
      </>
    );
  }
  const name = displayName(client);
  return (
    <>
      <BackLink />
      <PageHeader title={name} tabTitle="Client" description={client.email} />
      {records}
      <ClientNotes userId={userId} clientName={name} />
    </>
  );
}

function ClientNotes({ userId, clientName }: { userId: string; clientName: string }) {
  const notes = useClientNotes(userId);
  const queryClient = useQueryClient();
  const forbidden = notes.error instanceof ApiError && notes.error.status === 403;
  useEffect(() => {
    if (forbidden) void queryClient.invalidateQueries({ queryKey: coachClientsQueryKey });
  }, [forbidden, queryClient]);

  return (
    <section className="card" aria-labelledby="client-notes-title">
      <h2 id="client-notes-title" className="card__title">
        Coach notes
      </h2>
      <NoteForm userId={userId} clientName={clientName} />
      {notes.isError && forbidden ? (
        // No longer this coach's client: trying again cannot help.
        <Alert tone="error" title={NOTES_FAILED}>
          <p>{errorMessage(notes.error, COACHING_MESSAGES.notYourClient)}</p>
        </Alert>
      ) : notes.isError ? (
        <LoadFailed title={NOTES_FAILED} error={notes.error} onRetry={notes.refetch} />
      ) : notes.isPending ? (
        <Spinner />
      ) : (
        <NotesThread notes={notes.data} />
      )}
    </section>
  );
}
