import type { ReactNode } from 'react';

interface AlertProps {
  tone?: 'error' | 'success' | 'info' | 'warning';
  title?: string;
  children?: ReactNode;
  /** Shows a dismiss button with this accessible name. */
  onDismiss?: () => void;
  dismissLabel?: string;
}

/** A message box; errors are announced immediately (role alert), the rest politely (role status). */
export function Alert({ tone = 'info', title, children, onDismiss, dismissLabel = 'Dismiss' }: AlertProps) {
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <div className="alert__body">
        {title && <p className="alert__title">{title}</p>}
        {children}
      </div>
      {onDismiss && (
        <button type="button" className="alert__dismiss" onClick={onDismiss} aria-label={dismissLabel}>
          <span aria-hidden="true">×</span>
        </button>
      )}
    </div>
  );
}
