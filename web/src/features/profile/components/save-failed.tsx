import { Alert } from '../../../components/alert';
import { errorMessage } from '../../../lib/errors';

/**
 * A profile save that failed: the SPEC title, and under it the answer's own words; none for a request
 * that failed on the way (the browser's 'Failed to fetch' says nothing to a person).
 */
export function SaveFailed({ title, error }: { title: string; error: unknown }) {
  const detail = errorMessage(error, '');
  return (
    <Alert tone="error" title={title}>
      {detail && <p>{detail}</p>}
    </Alert>
  );
}
