import { MESSAGES } from '../../../../shared/messages';
import { Alert } from '../../components/alert';
import { Icon } from '../../components/icon';
import { busyButton } from '../../lib/busy-button';

interface PasskeyStepProps {
  email: string;
  onCreate: () => void;
  onBack: () => void;
  busy: boolean;
  error: string | null;
}

/** Step 2's title's id: focus moves to it from step 1 (it is focusable by script only). */
export const PASSKEY_STEP_TITLE = 'passkey-step-title';

/** Step 2: create the passkey on this device. */
export function PasskeyStep({ email, onCreate, onBack, busy, error }: PasskeyStepProps) {
  return (
    <section className="stack" aria-labelledby={PASSKEY_STEP_TITLE}>
      <h2 id={PASSKEY_STEP_TITLE} className="auth-card__step-title" tabIndex={-1}>
        {MESSAGES.setUpYourPasskey}
      </h2>
      <p className="muted">
        {email ? (
          <>
            Your code is confirmed for <strong>{email}</strong>.{' '}
          </>
        ) : null}
        A passkey lets you sign in with Face ID, Touch ID, Windows Hello or your screen lock. It stays on this
        device and cannot be phished.
      </p>
      {error && <Alert tone="error">{error}</Alert>}
      <button
        type="button"
        className="button button--primary button--large button--block"
        {...busyButton(busy, onCreate)}
        aria-busy={busy}
      >
        <Icon name="key" />
        {busy ? 'Creating Passkey...' : MESSAGES.createPasskey}
      </button>
      <button type="button" className="button button--ghost button--block" {...busyButton(busy, onBack)}>
        Back
      </button>
    </section>
  );
}
