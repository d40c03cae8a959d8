import { MESSAGES } from '../../../shared/messages';

/** The 'Loading...' state (SPEC section 2), announced politely to screen readers. */
export function Spinner({ label = MESSAGES.loading }: { label?: string }) {
  return (
    <div className="spinner" role="status" aria-live="polite">
      <span className="spinner__circle" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function FullPageSpinner() {
  return (
    <div className="full-page-center">
      <Spinner />
    </div>
  );
}
