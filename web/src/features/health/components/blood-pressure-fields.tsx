import { TextField } from '../../../components/form-field';

interface BloodPressureFieldsProps {
  ids: { systolic: string; diastolic: string; error: string };
  systolic: string;
  diastolic: string;
  onChange: (patch: { systolic?: string; diastolic?: string }) => void;
  /** One message for the pair (a bound, or 'Systolic must be higher than diastolic'). */
  error?: string | undefined;
}

/** Systolic and diastolic in mmHg, grouped, both described by the pair's message. */
export function BloodPressureFields({ ids, systolic, diastolic, onChange, error }: BloodPressureFieldsProps) {
  const invalid = {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? ids.error : undefined,
  };
  return (
    <fieldset className="fieldset">
      <legend>Blood pressure</legend>
      <div className="field-row">
        <TextField
          id={ids.systolic}
          label="Systolic (mmHg)"
          inputMode="numeric"
          autoComplete="off"
          value={systolic}
          onChange={(event) => onChange({ systolic: event.target.value })}
          {...invalid}
        />
        <TextField
          id={ids.diastolic}
          label="Diastolic (mmHg)"
          inputMode="numeric"
          autoComplete="off"
          value={diastolic}
          onChange={(event) => onChange({ diastolic: event.target.value })}
          {...invalid}
        />
      </div>
      {error && (
        <p id={ids.error} className="field__error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
