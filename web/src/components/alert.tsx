import type { MouseEvent, ReactNode } from 'react';

/** What the Tab key stops at (a CSS selector), but for what `tabbableIn` leaves out. */
const TABBABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/**
 * The elements of `scope` the Tab key stops at, in document order: none under a `hidden` or `inert`
 * ancestor, which the browser skips. The focus trap of dialogs uses it too; it is kept here, in the
 * first screen's own code, so that sharing it adds no script to the first load.
 */
export const tabbableIn = (scope: ParentNode): HTMLElement[] =>
  [...scope.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (element) => !element.closest('[hidden], [inert]'),
  );

interface AlertProps {
  tone?: 'error' | 'success' | 'info' | 'warning';
  title?: string;
  children?: ReactNode;
  /** Shows a dismiss button with this accessible name. */
  onDismiss?: () => void;
  dismissLabel?: string;
}

/**
 * Where focus goes when `alert` leaves with it: the first element after it that the Tab key stops at,
 * else the last one before it, within its dialog if it is in one (never behind the dialog).
 */
const neighbourOf = (alert: Element): HTMLElement | undefined => {
  const scope = alert.closest('dialog, [role="dialog"]') ?? document;
  const candidates = tabbableIn(scope).filter((element) => !alert.contains(element));
  const after = (element: Element) =>
    (alert.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  return candidates.find(after) ?? candidates.filter((element) => !after(element)).at(-1);
};

/** A message box; errors are announced immediately (role alert), the rest politely (role status). */
export function Alert({ tone = 'info', title, children, onDismiss, dismissLabel = 'Dismiss' }: AlertProps) {
  // The box leaves with its dismiss button: the focus it held moves on to the next thing on the page
  // first, so a keyboard or screen-reader user goes on from there, not from the top (WCAG 2.4.3).
  const dismiss = (event: MouseEvent<HTMLButtonElement>) => {
    const alert = event.currentTarget.closest('.alert');
    if (alert?.contains(document.activeElement)) neighbourOf(alert)?.focus();
    onDismiss?.();
  };
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <div className="alert__body">
        {title && <p className="alert__title">{title}</p>}
        {children}
      </div>
      {onDismiss && (
        <button type="button" className="alert__dismiss" onClick={dismiss} aria-label={dismissLabel}>
          <span aria-hidden="true">×</span>
        </button>
      )}
    </div>
  );
}
