import { AUDIT_TYPE_LABELS } from '../../../../../shared/audit';
import { LoadFailed } from '../../../components/load-failed';
import { Spinner } from '../../../components/spinner';
import { describeUserAgent, formatDateTime } from '../../../lib/format';
import { useMyActivity } from '../api/get-my-activity';
import { ProfileSection } from '../profile-view';

/** Not worded by SPEC-2 (docs/decisions/043-coaching-screens.md). */
const LOAD_FAILED = 'Could not load your recent activity';
const NO_ACTIVITY = 'No recent activity.';
/** An admin's action on the person: the admin's address and browser are not theirs to see. */
const BY_ADMIN = 'By an administrator';

/** 'Recent activity': the person's own sign-ins and security events, newest first. */
export function RecentActivity() {
  const activity = useMyActivity();
  return (
    <ProfileSection title="Recent activity">
      <p className="muted">
        Your last sign-ins and changes to your account. Something you do not recognise? Tell your admin.
      </p>
      {activity.isError ? (
        <LoadFailed title={LOAD_FAILED} error={activity.error} onRetry={activity.refetch} />
      ) : activity.isPending ? (
        <Spinner />
      ) : activity.data.length === 0 ? (
        <p className="muted">{NO_ACTIVITY}</p>
      ) : (
        <ul className="entry-list" aria-label="Recent activity, newest first">
          {activity.data.map((event) => (
            <li key={event.eventId} className="entry">
              <div className="entry__body">
                <p className="entry__title">
                  {AUDIT_TYPE_LABELS[event.type]}
                  {event.outcome === 'failure' && <span className="badge badge--warning">Failed</span>}
                </p>
                <p className="entry__detail">
                  {event.byAdmin
                    ? BY_ADMIN
                    : `${event.ip ?? ''} · ${describeUserAgent(event.userAgent ?? '')}`}
                </p>
                <p className="entry__time">
                  <time dateTime={event.at}>{formatDateTime(event.at)}</time>
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </ProfileSection>
  );
}
