import type { FormEvent, ReactNode } from 'react';
import { MESSAGES } from '../../../../../shared/messages';
import { Alert } from '../../../components/alert';
import { Modal } from '../../../components/overlay/modal';
import { busyButton } from '../../../lib/busy-button';

interface EntryDialogProps {
  title: string;
  description: string;
  onClose: () => void;
  onSubmit: () => void;
  isSaving: boolean;
  /** The server's refusal, shown above the fields. */
  serverError: string | null;
  children: ReactNode;
}

/**
 * The frame every log dialog shares: the modal (focus trap, Escape, focus return), a form that
 * validates itself (`noValidate`: the shared schema's messages, not the browser's), the server's
 * message on refusal, and Cancel / Save with the busy label 'Saving...'. While saving, nothing closes it.
 */
export function EntryDialog({
  title,
  description,
  onClose,
  onSubmit,
  isSaving,
  serverError,
  children,
}: EntryDialogProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isSaving) onSubmit();
  };
  return (
    // Not closable while saving: the save would still land, and its success or refusal go unseen.
    <Modal title={title} description={description} onClose={onClose} busy={isSaving}>
      <form className="form" onSubmit={submit} noValidate>
        {serverError && <Alert tone="error">{serverError}</Alert>}
        {children}
        <div className="form__actions">
          <button type="button" className="button button--secondary" {...busyButton(isSaving, onClose)}>
            Cancel
          </button>
          <button
            type="submit"
            className="button button--primary"
            {...busyButton(isSaving)}
            aria-busy={isSaving}
          >
            {isSaving ? MESSAGES.saving : 'Save'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
