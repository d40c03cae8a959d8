import {
  HEIGHT_CM_MAX,
  HEIGHT_CM_MIN,
  HEIGHT_FEET_MAX,
  HEIGHT_FEET_MIN,
  HEIGHT_INCHES_MAX,
  HEIGHT_INCHES_MIN,
} from '../../../../../shared/constants';
import { TextField } from '../../../components/form-field';
import type { ProfileFormValues } from '../profile-values';

interface HeightFieldsProps {
  idPrefix: string;
  values: ProfileFormValues;
  onChange: (patch: Partial<ProfileFormValues>) => void;
  error?: string | undefined;
}

/** Centimetres in metric; feet and inches in imperial. Bounds as input attributes (SPEC section 5). */
export function HeightFields({ idPrefix, values, onChange, error }: HeightFieldsProps) {
  if (values.measurementSystem === 'metric') {
    return (
      <TextField
        id={`${idPrefix}-height-cm`}
        label="Height (cm)"
        type="number"
        inputMode="decimal"
        min={HEIGHT_CM_MIN}
        max={HEIGHT_CM_MAX}
        step="any"
        value={values.heightCm}
        onChange={(event) => onChange({ heightCm: event.target.value })}
        error={error}
      />
    );
  }
  const errorId = `${idPrefix}-height-error`;
  // Each input is described by the pair's message too: focus lands on Feet, not on the group.
  const invalid = {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
  };
  return (
    <fieldset
      className={`fieldset${error ? ' field--invalid' : ''}`}
      aria-describedby={error ? errorId : undefined}
    >
      <legend>Height</legend>
      <div className="field-row">
        <TextField
          id={`${idPrefix}-height-feet`}
          label="Feet"
          type="number"
          inputMode="numeric"
          min={HEIGHT_FEET_MIN}
          max={HEIGHT_FEET_MAX}
          step={1}
          value={values.heightFeet}
          onChange={(event) => onChange({ heightFeet: event.target.value })}
          {...invalid}
        />
        <TextField
          id={`${idPrefix}-height-inches`}
          label="Inches"
          type="number"
          inputMode="numeric"
          min={HEIGHT_INCHES_MIN}
          max={HEIGHT_INCHES_MAX}
          step={1}
          value={values.heightInches}
          onChange={(event) => onChange({ heightInches: event.target.value })}
          {...invalid}
        />
      </div>
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
