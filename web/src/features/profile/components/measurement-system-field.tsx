import { MEASUREMENT_OPTIONS, type MeasurementSystem } from '../profile-values';

interface MeasurementSystemFieldProps {
  name: string;
  value: MeasurementSystem;
  onChange: (system: MeasurementSystem) => void;
}

/** Metric or imperial, as a radio group (two short options read best side by side). */
export function MeasurementSystemField({ name, value, onChange }: MeasurementSystemFieldProps) {
  return (
    <fieldset className="fieldset">
      <legend>Measurement system</legend>
      <div className="choice-row">
        {MEASUREMENT_OPTIONS.map((option) => (
          <label key={option.value} className="choice">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
