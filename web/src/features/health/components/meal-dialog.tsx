import { useState } from 'react';
import {
  createLogRequestSchema,
  logTime,
  type HealthLog,
  type NewLog,
} from '../../../../../shared/health-schemas';
import { TextField } from '../../../components/form-field';
import { useCreateLog } from '../api/create-log';
import { parseOptionalNumber, toInstant, toLocalInput } from '../health-format';
import { useEntryForm } from '../use-entry-form';
import { EntryDialog } from './entry-dialog';

const FIELDS = ['description', 'carbsGrams', 'eatenAt'] as const;
type Field = (typeof FIELDS)[number];
const ID: Record<Field, string> = {
  description: 'meal-description',
  carbsGrams: 'meal-carbs',
  eatenAt: 'meal-eaten-at',
};

interface LogDialogProps {
  onClose: () => void;
  /** With when the saved log happened (`logTime`). */
  onSaved: (at: string) => void;
}

/** Log Meal: what was eaten, optional carbs in grams, and when. */
export function MealDialog({ onClose, onSaved }: LogDialogProps) {
  const [description, setDescription] = useState('');
  const [carbs, setCarbs] = useState('');
  const [eatenAt, setEatenAt] = useState(() => toLocalInput(new Date()));
  const form = useEntryForm<Field, NewLog, HealthLog>({
    schema: createLogRequestSchema,
    fields: FIELDS,
    fieldOf: (path) => FIELDS.find((field) => field === path) ?? 'description',
    idOf: (field) => ID[field],
    save: useCreateLog(),
    onSaved: (saved) => onSaved(logTime(saved)),
  });
  const carbsGrams = parseOptionalNumber(carbs);

  const submit = () =>
    form.submit({
      kind: 'meal',
      description: description.trim(),
      ...(carbsGrams === undefined ? {} : { carbsGrams }),
      eatenAt: toInstant(eatenAt),
    });

  return (
    <EntryDialog
      title="Log Meal"
      description="What you ate and when; carbs help your coach read your glucose."
      onClose={onClose}
      onSubmit={submit}
      isSaving={form.isSaving}
      serverError={form.serverError}
    >
      <TextField
        id={ID.description}
        label="Description"
        autoComplete="off"
        data-autofocus
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        error={form.errors.description}
      />
      <div className="field-row">
        <TextField
          id={ID.carbsGrams}
          label="Carbs (g)"
          hint="Optional."
          inputMode="decimal"
          autoComplete="off"
          value={carbs}
          onChange={(event) => setCarbs(event.target.value)}
          error={form.errors.carbsGrams}
        />
        <TextField
          id={ID.eatenAt}
          label="Time"
          type="datetime-local"
          value={eatenAt}
          onChange={(event) => setEatenAt(event.target.value)}
          error={form.errors.eatenAt}
        />
      </div>
    </EntryDialog>
  );
}
