import { PERIODS, type PeriodDays } from '../period';

interface PeriodSelectorProps {
  value: PeriodDays;
  onChange: (days: PeriodDays) => void;
}

/** 7, 30 or 90 days: native radios, so arrow keys and screen readers work as expected. */
export function PeriodSelector({ value, onChange }: PeriodSelectorProps) {
  return (
    <fieldset className="fieldset period">
      <legend>Period</legend>
      <div className="segmented">
        {PERIODS.map((days) => (
          <label key={days} className="segmented__option">
            <input
              type="radio"
              name="metrics-period"
              value={days}
              checked={value === days}
              onChange={() => onChange(days)}
            />
            <span>{days} days</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
