import { busyButton } from '../lib/busy-button';
interface SubmitButtonProps {
  label: string;
  /** Said on the submit button while the form is being sent ('Saving...'). */
  busyLabel: string;
  busy: boolean;
  /** The submit waits for something besides `busy` (a required choice, a typed confirmation). */
  disabled?: boolean;
  /** 'danger' for a submit that erases something. */
  tone?: 'primary' | 'danger';
}

/** A form's submit, saying so and doing nothing while busy (it keeps the focus: `busyButton`). */
export function SubmitButton({
  label,
  busyLabel,
  busy,
  disabled = false,
  tone = 'primary',
}: SubmitButtonProps) {
  return (
    <button
      type="submit"
      className={`button button--${tone}`}
      disabled={disabled && !busy}
      {...busyButton(busy)}
      aria-busy={busy}
    >
      {busy ? busyLabel : label}
    </button>
  );
}

interface FormActionsProps extends Omit<SubmitButtonProps, 'label'> {
  onCancel: () => void;
  submitLabel: string;
}

/**
 * A dialog form's Cancel and submit. Cancel is disabled while the form is sent, so the dialog stays
 * until the answer is in and its outcome is shown: give `busy` to the `Modal` too, for Escape, the
 * backdrop and the close button.
 */
export function FormActions({ onCancel, submitLabel, ...submit }: FormActionsProps) {
  return (
    <div className="form__actions">
      <button type="button" className="button button--secondary" {...busyButton(submit.busy, onCancel)}>
        Cancel
      </button>
      <SubmitButton label={submitLabel} {...submit} />
    </div>
  );
}
