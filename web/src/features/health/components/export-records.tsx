import { useId } from 'react';
import { Alert } from '../../../components/alert';
import { errorMessage } from '../../../lib/errors';
import { useExportRecords, type ExportFormat } from '../api/export-records';
import { busyButton } from '../../../lib/busy-button';

const FORMATS: readonly { format: ExportFormat; label: string }[] = [
  { format: 'json', label: 'Download JSON' },
  { format: 'fhir', label: 'Download FHIR' },
];

/** Not worded by SPEC-2 (docs/decisions/041-health-screens.md). */
const EXPORT_FAILED = 'Could not export your data. Please try again.';

/**
 * 'Export my data': the whole account as JSON or as a FHIR R4 Bundle, saved as a file. On Metrics &
 * Analytics and on the Profile page.
 */
export function ExportRecords() {
  const titleId = useId();
  const exporting = useExportRecords();
  const busy = exporting.isPending ? exporting.variables : null;
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId} className="card__title">
        Export my data
      </h2>
      <p className="muted">
        Everything your account holds, as JSON, or as a FHIR R4 Bundle that other health systems can read.
      </p>
      <div className="button-row">
        {FORMATS.map(({ format, label }) => (
          <button
            key={format}
            type="button"
            className="button button--secondary"
            {...busyButton(exporting.isPending, () => exporting.mutate(format))}
            aria-busy={busy === format}
          >
            {busy === format ? 'Preparing...' : label}
          </button>
        ))}
      </div>
      {exporting.isError && <Alert tone="error">{errorMessage(exporting.error, EXPORT_FAILED)}</Alert>}
      <p className="save-status" role="status">
        {exporting.isSuccess ? `Saved ${exporting.data}` : ''}
      </p>
    </section>
  );
}
