import { useId, type ChangeEvent, type FormEvent } from 'react';
import { ACTIVATION_CODE_FORMATTED_LENGTH, ACTIVATION_CODE_PLACEHOLDER } from '../../../../shared/constants';
import { formatActivationCode } from '../../../../shared/activation-code';
import { MESSAGES } from '../../../../shared/messages';
import { Alert } from '../../components/alert';
import { busyButton } from '../../lib/busy-button';

interface CodeStepProps {
  email: string;
  code: string;
  onEmailChange: (email: string) => void;
  onCodeChange: (code: string) => void;
  onSubmit: () => void;
  /** The person starts on the form (focus in it, or the pointer over it): what submitting needs may be fetched. */
  onIntent?: () => void;
  busy: boolean;
  error: string | null;
}

/** The email field's id: where focus goes back to from step 2. */
export const EMAIL_FIELD = 'activation-email';

/** Step 1: email and activation code; the code formats itself as XXXX-XXXX-XXXX-XXXX. */
export function CodeStep({
  email,
  code,
  onEmailChange,
  onCodeChange,
  onSubmit,
  onIntent,
  busy,
  error,
}: CodeStepProps) {
  const codeHint = useId();
  // No `maxLength`: the browser would cut pasted or autofilled text before it is normalised, and
  // ' ABCD-EFGH-IJKL-MNOP' or 'ABCD - EFGH - IJKL - MNOP' would lose characters; the format cuts at 16.
  const changeCode = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    // One more character in a full code is refused in place, as `maxLength` did: the code and the
    // caret stay as they were (typing in the middle of a full code does not push its end out).
    const caret = (input.selectionStart ?? input.value.length) - 1;
    const oneTyped =
      input.value.length === code.length + 1 &&
      input.value.slice(0, caret) + input.value.slice(caret + 1) === code;
    if (code.length >= ACTIVATION_CODE_FORMATTED_LENGTH && oneTyped) {
      input.value = code;
      input.setSelectionRange(caret, caret);
      return;
    }
    onCodeChange(formatActivationCode(input.value));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="form" onSubmit={submit} onFocus={onIntent} onPointerEnter={onIntent} noValidate={false}>
      {error && <Alert tone="error">{error}</Alert>}
      <div className="field">
        <label htmlFor={EMAIL_FIELD}>Email address</label>
        <input
          id={EMAIL_FIELD}
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => onEmailChange(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="activation-code">Activation code</label>
        <input
          id="activation-code"
          className="input--code"
          type="text"
          required
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          inputMode="text"
          placeholder={ACTIVATION_CODE_PLACEHOLDER}
          aria-describedby={codeHint}
          value={code}
          onChange={changeCode}
        />
        <p id={codeHint} className="field__hint">
          The 16-character code from your invitation.
        </p>
      </div>
      <button
        type="submit"
        className="button button--primary button--block"
        {...busyButton(busy)}
        aria-busy={busy}
      >
        {busy ? MESSAGES.verifying : 'Verify Code'}
      </button>
    </form>
  );
}
