import { useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useFocusTrap } from './use-focus-trap';
import { useScrollLock } from './use-scroll-lock';
import { busyButton } from '../../lib/busy-button';

interface ModalProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Closes on Escape, on the close button and on the backdrop; omit for a dialog that must be completed. */
  onClose?: () => void;
  /**
   * A save is in flight: Escape, the backdrop and the close button do nothing (the button is disabled)
   * until it settles, so its success or refusal is shown rather than lost with the dialog.
   */
  busy?: boolean;
  size?: 'md' | 'lg';
}

/** An accessible modal dialog: labelled, focus kept inside, page scroll locked. */
export function Modal({ title, description, children, onClose, busy = false, size = 'md' }: ModalProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panel = useRef<HTMLDivElement>(null);
  // Always the same kind of handler while the dialog is closable, so a busy spell never restarts the
  // focus trap (which would move focus); it only does nothing meanwhile.
  const close = onClose && (() => (busy ? undefined : onClose()));
  useFocusTrap(panel, true, { onEscape: close });
  useScrollLock(true);

  return createPortal(
    <div className="modal">
      <div className="modal__backdrop" aria-hidden="true" onClick={close} />
      <div
        ref={panel}
        className={`modal__panel modal__panel--${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
      >
        <div className="modal__header">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          {onClose && (
            <button
              type="button"
              className="icon-button"
              {...busyButton(busy, close)}
              aria-label="Close dialog"
            >
              <span aria-hidden="true">×</span>
            </button>
          )}
        </div>
        {description && (
          <p id={descriptionId} className="modal__description">
            {description}
          </p>
        )}
        {children}
      </div>
    </div>,
    document.body,
  );
}
