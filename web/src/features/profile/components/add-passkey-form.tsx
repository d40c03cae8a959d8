import { useState, type FormEvent } from 'react';
import { ACCOUNT_LABELS, type Passkey } from '../../../../../shared/account';
import { SubmitButton } from '../../../components/form-actions';
import type { useAddPasskey } from '../api/add-passkey';
import { PasskeyActionError } from './passkey-action-error';
import { PasskeyNameField } from './passkey-name-field';

/** Not worded by SPEC-2 (docs/decisions/045-account-screens.md). */
const ADD_FAILED = 'Could not add the passkey. Please try again.';

interface AddPasskeyFormProps {
  /** The section's add (`useAddPasskey`): the section clears its refusal when another action succeeds. */
  add: ReturnType<typeof useAddPasskey>;
  onAdded: (passkey: Passkey) => void;
}

/** 'Add a passkey': an optional name, then the device's own prompt. */
export function AddPasskeyForm({ add, onAdded }: AddPasskeyFormProps) {
  const [name, setName] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(name.trim() || undefined, {
      onSuccess: (passkey) => {
        setName('');
        onAdded(passkey);
      },
    });
  };

  return (
    <form className="form" onSubmit={submit} aria-label={ACCOUNT_LABELS.addPasskey}>
      {add.isError && <PasskeyActionError error={add.error} fallback={ADD_FAILED} onDismiss={add.reset} />}
      <PasskeyNameField
        id="add-passkey-name"
        label="Name (optional)"
        hint="Left empty, it is named after your passkey provider."
        value={name}
        onChange={setName}
      />
      <div className="form__actions">
        <SubmitButton label={ACCOUNT_LABELS.addPasskey} busyLabel="Adding..." busy={add.isPending} />
      </div>
    </form>
  );
}
