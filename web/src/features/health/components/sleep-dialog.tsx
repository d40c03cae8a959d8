import { useState } from 'react';
import { SLEEP_QUALITY } from '../../../../../shared/health';
import {
  createLogRequestSchema,
  logTime,
  type HealthLog,
  type NewLog,
} from '../../../../../shared/health-schemas';
import { SelectField, TextField } from '../../../components/form-field';
import { useCreateLog } from '../api/create-log';
import { parseOptionalNumber, toInstant, toLocalInput } from '../health-format';
import { useEntryForm } from '../use-entry-form';
import { EntryDialog } from './entry-dialog';

const FIELDS = ['start', 'end', 'quality'] as const;
type Field = (typeof FIELDS)[number];
const ID: Record<Field, string> = { start: 'sleep-start', end: 'sleep-end', quality: 'sleep-quality' };

/** A typical night before now, to adjust rather than type from scratch. */
const DEFAULT_NIGHT_MS = 8 * 60 * 60_000;

const QUALITY_WORDS = ['very poor', 'poor', 'fair', 'good', 'very good'];
const QUALITY_OPTIONS = [
  { value: '', label: 'Not rated' },
  ...QUALITY_WORDS.map((word, index) => ({
    value: String(SLEEP_QUALITY.min + index),
    label: `${SLEEP_QUALITY.min + index} (${word})`,
  })),
];

interface LogDialogProps {
  onClose: () => void;
  /** With when the saved log happened (`logTime`). */
  onSaved: (at: string) => void;
}

/** Log Sleep: when it started and ended (at most 24 hours), and an optional 1-5 quality. */
export function SleepDialog({ onClose, onSaved }: LogDialogProps) {
  const [end, setEnd] = useState(() => toLocalInput(new Date()));
  const [start, setStart] = useState(() => toLocalInput(new Date(Date.now() - DEFAULT_NIGHT_MS)));
  const [quality, setQuality] = useState('');
  const form = useEntryForm<Field, NewLog, HealthLog>({
    schema: createLogRequestSchema,
    fields: FIELDS,
    fieldOf: (path) => FIELDS.find((field) => field === path) ?? 'start',
    idOf: (field) => ID[field],
    save: useCreateLog(),
    onSaved: (saved) => onSaved(logTime(saved)),
  });
  const rating = parseOptionalNumber(quality);

  const submit = () =>
    form.submit({
      kind: 'sleep',
      start: toInstant(start),
      end: toInstant(end),
      ...(rating === undefined ? {} : { quality: rating }),
    });

  return (
    <EntryDialog
      title="Log Sleep"
      description="When you fell asleep and woke up."
      onClose={onClose}
      onSubmit={submit}
      isSaving={form.isSaving}
      serverError={form.serverError}
    >
      <div className="field-row">
        <TextField
          id={ID.start}
          label="Sleep start"
          type="datetime-local"
          data-autofocus
          value={start}
          onChange={(event) => setStart(event.target.value)}
          error={form.errors.start}
        />
        <TextField
          id={ID.end}
          label="Sleep end"
          type="datetime-local"
          value={end}
          onChange={(event) => setEnd(event.target.value)}
          error={form.errors.end}
        />
      </div>
      <SelectField
        id={ID.quality}
        label="Quality"
        options={QUALITY_OPTIONS}
        value={quality}
        onChange={(event) => setQuality(event.target.value)}
        error={form.errors.quality}
      />
    </EntryDialog>
  );
}
