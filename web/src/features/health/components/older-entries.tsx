import { useEffect, useMemo, useRef, useState } from 'react';
import type { MeasurementSystem } from '../../../../../shared/health';
import { Alert } from '../../../components/alert';
import { LoadFailed } from '../../../components/load-failed';
import { Spinner } from '../../../components/spinner';
import type { RecordSource } from '../api/record-source';
import { useEntriesIn } from '../api/use-entries-in';
import type { Entry } from '../entries';
import { RecentEntries } from './recent-entries';

/** Not worded by SPEC-2 (docs/decisions/041-health-screens.md). */
export const SHOW_OLDER = 'Show older entries';
export const OLDER_TITLE = 'Older entries';
export const NO_OLDER = 'No older entries.';
const OLDER_PARTIAL = 'There are more older entries than can be shown at once; the oldest are left out.';

interface OlderEntriesProps {
  source: RecordSource;
  system: MeasurementSystem;
  /** The first moment of the period shown above: these entries are before it. */
  before: string;
  /** The alert title when they cannot be read. */
  loadFailed: string;
  /** Omit for read-only entries (someone else's records). */
  onDelete?: (entry: Entry) => void;
  deleting?: ReadonlyMap<string, unknown>;
}

/**
 * Entries dated before the period Recent Entries shows (7, 30 or 90 days), read only when asked: an
 * entry dated further back would otherwise be on no screen, and could not be deleted there.
 */
export function OlderEntries({ source, system, before, loadFailed, onDelete, deleting }: OlderEntriesProps) {
  const [open, setOpen] = useState(false);
  const range = useMemo(() => ({ to: new Date(Date.parse(before) - 1).toISOString() }), [before]);
  const { entries, error, pending, partial, retry } = useEntriesIn(range, source, open);
  // The button that opened the list leaves: reading goes on from the list's title.
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (open) title.current?.focus();
  }, [open]);

  if (!open)
    return (
      <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>
        {SHOW_OLDER}
      </button>
    );
  return (
    <section aria-labelledby="older-entries-title">
      <h3 id="older-entries-title" className="form__title focus-target" ref={title} tabIndex={-1}>
        {OLDER_TITLE}
      </h3>
      {error ? (
        <LoadFailed title={loadFailed} error={error} onRetry={retry} />
      ) : pending ? (
        <Spinner />
      ) : (
        // One list from here on, empty or not, so the focus a deleted entry's button had stays in it.
        <>
          {partial && (
            <Alert tone="info">
              <p>{OLDER_PARTIAL}</p>
            </Alert>
          )}
          <RecentEntries
            entries={entries}
            system={system}
            label="Older entries, newest first"
            emptyText={NO_OLDER}
            {...(onDelete && { onDelete, ...(deleting && { deleting }) })}
          />
        </>
      )}
    </section>
  );
}
