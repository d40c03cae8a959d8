import { useState } from 'react';
import { ACTIVITY_INTENSITIES, type ActivityIntensity } from '../../../../../shared/health';
import {
  createLogRequestSchema,
  logTime,
  type HealthLog,
  type NewLog,
} from '../../../../../shared/health-schemas';
import { SelectField, TextField } from '../../../components/form-field';
import { useCreateLog } from '../api/create-log';
import { INTENSITY_LABELS, parseNumber, toInstant, toLocalInput } from '../health-format';
import { useEntryForm } from '../use-entry-form';
import { EntryDialog } from './entry-dialog';

const FIELDS = ['activity', 'minutes', 'intensity', 'startedAt'] as const;
type Field = (typeof FIELDS)[number];
const ID: Record<Field, string> = {
  activity: 'activity-name',
  minutes: 'activity-minutes',
  intensity: 'activity-intensity',
  startedAt: 'activity-started-at',
};

interface LogDialogProps {
  onClose: () => void;
  /** With when the saved log happened (`logTime`). */
  onSaved: (at: string) => void;
}

/** Log Activity: what, how long, how hard, and when it started. */
export function ActivityDialog({ onClose, onSaved }: LogDialogProps) {
  const [activity, setActivity] = useState('');
  const [minutes, setMinutes] = useState('');
  const [intensity, setIntensity] = useState<ActivityIntensity>('moderate');
  const [startedAt, setStartedAt] = useState(() => toLocalInput(new Date()));
  const form = useEntryForm<Field, NewLog, HealthLog>({
    schema: createLogRequestSchema,
    fields: FIELDS,
    fieldOf: (path) => FIELDS.find((field) => field === path) ?? 'activity',
    idOf: (field) => ID[field],
    save: useCreateLog(),
    onSaved: (saved) => onSaved(logTime(saved)),
  });

  const submit = () =>
    form.submit({
      kind: 'activity',
      activity: activity.trim(),
      minutes: parseNumber(minutes),
      intensity,
      startedAt: toInstant(startedAt),
    });

  return (
    <EntryDialog
      title="Log Activity"
      description="Movement of any kind counts: a walk, a class, gardening."
      onClose={onClose}
      onSubmit={submit}
      isSaving={form.isSaving}
      serverError={form.serverError}
    >
      <TextField
        id={ID.activity}
        label="Activity"
        autoComplete="off"
        data-autofocus
        value={activity}
        onChange={(event) => setActivity(event.target.value)}
        error={form.errors.activity}
      />
      <div className="field-row">
        <TextField
          id={ID.minutes}
          label="Minutes"
          inputMode="numeric"
          autoComplete="off"
          value={minutes}
          onChange={(event) => setMinutes(event.target.value)}
          error={form.errors.minutes}
        />
        <SelectField
          id={ID.intensity}
          label="Intensity"
          options={ACTIVITY_INTENSITIES.map((i) => ({ value: i, label: INTENSITY_LABELS[i] }))}
          value={intensity}
          onChange={(event) => setIntensity(event.target.value as ActivityIntensity)}
          error={form.errors.intensity}
        />
      </div>
      <TextField
        id={ID.startedAt}
        label="Start time"
        type="datetime-local"
        value={startedAt}
        onChange={(event) => setStartedAt(event.target.value)}
        error={form.errors.startedAt}
      />
    </EntryDialog>
  );
}
