import { useState } from 'react';
import {
  DEFAULT_GLUCOSE_CONTEXT,
  displayUnit,
  GLUCOSE_CONTEXTS,
  MEASUREMENT_TYPES,
  type GlucoseContext,
  type MeasurementSystem,
  type MeasurementType,
  type MeasurementUnit,
} from '../../../../../shared/health';
import { createMeasurementRequestSchema, type Measurement } from '../../../../../shared/health-schemas';
import { SelectField, TextField } from '../../../components/form-field';
import { useCreateMeasurement, type CreateMeasurementInput } from '../api/create-measurement';
import { CONTEXT_LABELS, measurementLabel, parseNumber, toInstant, toLocalInput } from '../health-format';
import { useEntryForm } from '../use-entry-form';
import { BloodPressureFields } from './blood-pressure-fields';
import { EntryDialog } from './entry-dialog';
import { NoteField } from './note-field';

/** The units offered for a type: the person's system, and mmol/L beside mg/dL for lab values. */
export const unitChoices = (type: MeasurementType, system: MeasurementSystem): MeasurementUnit[] =>
  type === 'glucose' || type === 'triglycerides' ? ['mg/dL', 'mmol/L'] : [displayUnit(type, system)];

const FIELDS = ['type', 'value', 'enteredUnit', 'takenAt', 'context', 'note'] as const;
type Field = (typeof FIELDS)[number];
/** Unknown paths (there should be none) land on the value, the field most likely at fault. */
const fieldOf = (path: string): Field => FIELDS.find((field) => field === path) ?? 'value';

const ID = {
  type: 'measurement-type',
  value: 'measurement-value',
  systolic: 'measurement-systolic',
  diastolic: 'measurement-diastolic',
  enteredUnit: 'measurement-unit',
  takenAt: 'measurement-taken-at',
  context: 'measurement-context',
  note: 'measurement-note',
};

interface MeasurementDialogProps {
  system: MeasurementSystem;
  onClose: () => void;
  /** With when the saved reading was taken. */
  onSaved: (at: string) => void;
}

/** Log Measurement: the value goes to the server as typed, with its unit; the server converts. */
export function MeasurementDialog({ system, onClose, onSaved }: MeasurementDialogProps) {
  const [type, setType] = useState<MeasurementType>('glucose');
  const [unit, setUnit] = useState<MeasurementUnit>(unitChoices('glucose', system)[0] ?? 'mg/dL');
  const [value, setValue] = useState('');
  const [pressure, setPressure] = useState({ systolic: '', diastolic: '' });
  const [takenAt, setTakenAt] = useState(() => toLocalInput(new Date()));
  const [context, setContext] = useState<GlucoseContext>(DEFAULT_GLUCOSE_CONTEXT);
  const [note, setNote] = useState('');
  const units = unitChoices(type, system);
  const form = useEntryForm<Field, CreateMeasurementInput, Measurement>({
    schema: createMeasurementRequestSchema,
    fields: FIELDS,
    // With a single unit there is no unit field: its (unlikely) message goes with the value.
    fieldOf: (path) => (path === 'enteredUnit' && units.length < 2 ? 'value' : fieldOf(path)),
    idOf: (field) => (field === 'value' && type === 'blood_pressure' ? ID.systolic : ID[field]),
    save: useCreateMeasurement(),
    onSaved: (saved) => onSaved(saved.takenAt),
  });
  const isBloodPressure = type === 'blood_pressure';

  const changeType = (next: MeasurementType) => {
    setType(next);
    setUnit(unitChoices(next, system)[0] ?? 'mg/dL');
  };

  const submit = () =>
    form.submit({
      type,
      value: isBloodPressure
        ? { systolic: parseNumber(pressure.systolic), diastolic: parseNumber(pressure.diastolic) }
        : parseNumber(value),
      enteredUnit: unit,
      takenAt: toInstant(takenAt),
      ...(type === 'glucose' ? { context } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
    });

  return (
    <EntryDialog
      title="Log Measurement"
      description="Record a reading in the units you use; we store it for your coach."
      onClose={onClose}
      onSubmit={submit}
      isSaving={form.isSaving}
      serverError={form.serverError}
    >
      <SelectField
        id={ID.type}
        label="Measurement"
        data-autofocus
        options={MEASUREMENT_TYPES.map((t) => ({ value: t, label: measurementLabel(t) }))}
        value={type}
        onChange={(event) => changeType(event.target.value as MeasurementType)}
        error={form.errors.type}
      />
      {isBloodPressure ? (
        <BloodPressureFields
          ids={{ systolic: ID.systolic, diastolic: ID.diastolic, error: `${ID.value}-error` }}
          systolic={pressure.systolic}
          diastolic={pressure.diastolic}
          onChange={(patch) => setPressure((current) => ({ ...current, ...patch }))}
          error={form.errors.value}
        />
      ) : (
        <div className="field-row">
          <TextField
            id={ID.value}
            label={`${measurementLabel(type)} (${unit})`}
            inputMode="decimal"
            autoComplete="off"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            error={form.errors.value}
          />
          {units.length > 1 && (
            <SelectField
              id={ID.enteredUnit}
              label="Unit"
              options={units.map((u) => ({ value: u, label: u }))}
              value={unit}
              onChange={(event) => setUnit(event.target.value as MeasurementUnit)}
              error={form.errors.enteredUnit}
            />
          )}
        </div>
      )}
      <div className="field-row">
        <TextField
          id={ID.takenAt}
          label="Date and time"
          type="datetime-local"
          value={takenAt}
          onChange={(event) => setTakenAt(event.target.value)}
          error={form.errors.takenAt}
        />
        {type === 'glucose' && (
          <SelectField
            id={ID.context}
            label="Glucose context"
            options={GLUCOSE_CONTEXTS.map((c) => ({ value: c, label: CONTEXT_LABELS[c] }))}
            value={context}
            onChange={(event) => setContext(event.target.value as GlucoseContext)}
            error={form.errors.context}
          />
        )}
      </div>
      <NoteField id={ID.note} value={note} onChange={setNote} error={form.errors.note} />
    </EntryDialog>
  );
}
