import { COACHING_MESSAGES, type MyCoach } from '../../../../shared/coaching';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { Spinner } from '../../components/spinner';
import { displayName, fullName } from '../../lib/format';
import { useMyCoach } from './api/get-my-coach';
import { NotesThread } from './components/notes-thread';
import { LoadFailed } from '../../components/load-failed';

/** Not worded by SPEC-2 (docs/decisions/043-coaching-screens.md). */
const LOAD_FAILED = 'Could not load your coach';

/** My Coach (client): the coach's name and email and their notes, newest first (SPEC-2 section 2). */
export function MyCoachPage() {
  const myCoach = useMyCoach();
  return (
    <>
      <PageHeader title="My Coach" description="Your coach and the notes they write to you." />
      {myCoach.isError ? (
        <LoadFailed title={LOAD_FAILED} error={myCoach.error} onRetry={() => myCoach.refetch()} />
      ) : myCoach.isPending ? (
        <Spinner />
      ) : (
        <CoachAndNotes data={myCoach.data} />
      )}
    </>
  );
}

function CoachAndNotes({ data: { coach, notes } }: { data: MyCoach }) {
  const names = new Map(coach ? [[coach.userId, displayName(coach)]] : []);
  return (
    <>
      <section className="card" aria-labelledby="my-coach-title">
        <h2 id="my-coach-title" className="card__title">
          Your coach
        </h2>
        {coach ? (
          <dl className="details">
            <div className="details__item">
              <dt>Name</dt>
              <dd>{fullName(coach) || <span className="muted">Not set</span>}</dd>
            </div>
            <div className="details__item">
              <dt>Email</dt>
              <dd>
                <a href={`mailto:${coach.email}`}>{coach.email}</a>
              </dd>
            </div>
          </dl>
        ) : (
          <EmptyState>{COACHING_MESSAGES.noCoach}</EmptyState>
        )}
      </section>
      {/* Notes from an earlier coach stay the client's to read. */}
      {(coach || notes.length > 0) && (
        <section className="card" aria-labelledby="my-coach-notes-title">
          <h2 id="my-coach-notes-title" className="card__title">
            Notes from your coach
          </h2>
          <NotesThread notes={notes} names={names} />
        </section>
      )}
    </>
  );
}
