import { useState, type FormEvent } from 'react';
import {
  ACCOUNT_LABELS,
  ACCOUNT_MESSAGES,
  passkeyNameSchema,
  type Passkey,
} from '../../../../../shared/account';
import { MESSAGES } from '../../../../../shared/messages';
import { Alert } from '../../../components/alert';
import { FormActions } from '../../../components/form-actions';
import { Modal } from '../../../components/overlay/modal';
import { errorMessage } from '../../../lib/errors';
import { useFocusAfterRender } from '../../../lib/use-focus-after-render';
import { useRenamePasskey } from '../api/rename-passkey';
import { PasskeyNameField } from './passkey-name-field';

/** Not worded by SPEC-2 (docs/decisions/045-account-screens.md). */
const RENAME_FAILED = 'Could not rename the passkey. Please try again.';
const NAME_FIELD = 'rename-passkey-name';

interface RenamePasskeyModalProps {
  passkey: Passkey;
  onClose: () => void;
  onRenamed: (passkey: Passkey) => void;
}

/** 'Rename': a name of 1 to 64 characters, checked with the shared schema before it is sent. */
export function RenamePasskeyModal({ passkey, onClose, onRenamed }: RenamePasskeyModalProps) {
  const [name, setName] = useState(passkey.name);
  const [invalid, setInvalid] = useState<string>();
  const rename = useRenamePasskey();
  const focusAfterRender = useFocusAfterRender();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = passkeyNameSchema.safeParse(name);
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? ACCOUNT_MESSAGES.passkeyName);
      focusAfterRender(NAME_FIELD);
      return;
    }
    setInvalid(undefined);
    rename.mutate({ credentialId: passkey.credentialId, name: parsed.data }, { onSuccess: onRenamed });
  };

  return (
    <Modal
      title={`${ACCOUNT_LABELS.rename} passkey`}
      description={`A new name for ${passkey.name}.`}
      onClose={onClose}
      busy={rename.isPending}
    >
      <form className="form" onSubmit={submit} noValidate>
        {rename.isError && <Alert tone="error">{errorMessage(rename.error, RENAME_FAILED)}</Alert>}
        <PasskeyNameField
          id={NAME_FIELD}
          label="Name"
          value={name}
          onChange={setName}
          error={invalid}
          data-autofocus
        />
        <FormActions
          onCancel={onClose}
          submitLabel="Save"
          busyLabel={MESSAGES.saving}
          busy={rename.isPending}
        />
      </form>
    </Modal>
  );
}
