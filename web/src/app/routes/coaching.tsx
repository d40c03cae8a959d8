/*
 * One route module for the three coaching pages (one chunk: the entry's preload map stays about as
 * small as it was; docs/decisions/043-coaching-screens.md). The client detail joins the coaching
 * feature (the client, the notes) to the health feature's charts and entries, read from the coach
 * routes and shown in the coach's own measurement system, as Metrics & Analytics shows a person's own.
 */
import { useParams } from 'react-router';
import { Spinner } from '../../components/spinner';
import { ClientDetailPage } from '../../features/coaching/client-detail-page';
import { clientRecords } from '../../features/health/api/record-source';
import { PeriodRecords } from '../../features/health/components/period-records';
import { useMeasurementSystem } from '../measurement-system';

/** /dashboard/clients (coach). */
export { ClientsPage } from '../../features/coaching/clients-page';
/** /dashboard/coach (client). */
export { MyCoachPage } from '../../features/coaching/my-coach-page';

/** Not worded by SPEC-2 (docs/decisions/043-coaching-screens.md). */
const LOAD_FAILED = "Could not load the client's entries";

/** /dashboard/clients/{userId} (the client's coach). */
export function ClientDetailRoute() {
  const { userId = '' } = useParams();
  const system = useMeasurementSystem();
  return (
    <ClientDetailPage
      userId={userId}
      records={
        system ? (
          <PeriodRecords
            key={userId}
            source={clientRecords(userId)}
            system={system}
            loadFailed={LOAD_FAILED}
          />
        ) : (
          <Spinner />
        )
      }
    />
  );
}
