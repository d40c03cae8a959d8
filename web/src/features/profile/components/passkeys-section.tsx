import { useQueryClient, type MutationKey } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ACCOUNT_LABELS, confirmRemovePasskey, type Passkey } from '../../../../../shared/account';
import { LoadFailed } from '../../../components/load-failed';
import { Spinner } from '../../../components/spinner';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useKeepFocusIn } from '../../../lib/keep-focus';
import { addPasskeyMutationKey, useAddPasskey } from '../api/add-passkey';
import { usePasskeys } from '../api/get-passkeys';
import { removePasskeyMutationKey, useRemovePasskey } from '../api/remove-passkey';
import { ProfileSection } from '../profile-view';
import { AddPasskeyForm } from './add-passkey-form';
import { PasskeyActionError } from './passkey-action-error';
import { RenamePasskeyModal } from './rename-passkey-modal';
import { busyButton } from '../../../lib/busy-button';

/** Not worded by SPEC-2 (docs/decisions/045-account-screens.md). */
const LOAD_FAILED = 'Could not load your passkeys';
const REMOVE_FAILED = 'Could not remove the passkey. Please try again.';

function PasskeyDetails({ passkey }: { passkey: Passkey }) {
  return (
    <div className="entry__body">
      <p className="entry__title">
        {passkey.name}
        <span className="badge badge--neutral">
          {passkey.backedUp ? ACCOUNT_LABELS.synced : ACCOUNT_LABELS.deviceBound}
        </span>
      </p>
      {passkey.providerName && passkey.providerName !== passkey.name && (
        <p className="entry__detail">{passkey.providerName}</p>
      )}
      <p className="entry__time">
        Created <time dateTime={passkey.createdAt}>{formatDate(passkey.createdAt)}</time>
        {' · '}
        {passkey.lastUsedAt ? (
          <>
            Last used <time dateTime={passkey.lastUsedAt}>{formatDateTime(passkey.lastUsedAt)}</time>
          </>
        ) : (
          'Not used yet'
        )}
      </p>
    </div>
  );
}

/**
 * 'Passkeys' (SPEC-2 section 3.1): the person's passkeys, and adding, renaming and removing them. A
 * refusal stays until it is dismissed or another passkey action succeeds (then it is out of date).
 */
export function PasskeysSection() {
  const passkeys = usePasskeys();
  const remove = useRemovePasskey();
  const add = useAddPasskey();
  const queryClient = useQueryClient();
  /**
   * Once an action succeeds, an earlier refusal of another is out of date and goes. One under way is
   * left alone (its outcome is still to be shown); asked of the cache, as this callback's render may be old.
   */
  const clearStale = (...stale: readonly [{ reset: () => void }, MutationKey][]) => {
    for (const [mutation, mutationKey] of stale)
      if (!queryClient.isMutating({ mutationKey })) mutation.reset();
  };
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [status, setStatus] = useState('');
  const list = useRef<HTMLUListElement>(null);
  // A removed passkey's buttons leave with it: focus stays in the list.
  useKeepFocusIn(list, passkeys.data);

  const onRemove = (passkey: Passkey) => {
    if (!window.confirm(confirmRemovePasskey(passkey.name))) return;
    setStatus('');
    remove.mutate(passkey.credentialId, {
      onSuccess: () => {
        clearStale([add, addPasskeyMutationKey]);
        setStatus(`${passkey.name} removed.`);
      },
    });
  };

  return (
    <ProfileSection title={ACCOUNT_LABELS.passkeys}>
      <p className="muted">
        Sign in with Face ID, Touch ID, Windows Hello or a security key. A passkey on a second device keeps
        you in when one is lost.
      </p>
      {remove.isError && (
        <PasskeyActionError error={remove.error} fallback={REMOVE_FAILED} onDismiss={remove.reset} />
      )}
      {passkeys.isError ? (
        <LoadFailed title={LOAD_FAILED} error={passkeys.error} onRetry={passkeys.refetch} />
      ) : passkeys.isPending ? (
        <Spinner />
      ) : (
        <ul className="entry-list" aria-label={ACCOUNT_LABELS.passkeys} ref={list} tabIndex={-1}>
          {passkeys.data.map((passkey) => (
            <li key={passkey.credentialId} className="entry">
              <PasskeyDetails passkey={passkey} />
              <div className="button-row">
                <button
                  type="button"
                  className="button button--secondary button--small"
                  aria-label={`${ACCOUNT_LABELS.rename} ${passkey.name}`}
                  onClick={() => setRenaming(passkey)}
                >
                  {ACCOUNT_LABELS.rename}
                </button>
                <button
                  type="button"
                  className="button button--danger button--small"
                  aria-label={`${ACCOUNT_LABELS.remove} ${passkey.name}`}
                  {...busyButton(remove.isPending && remove.variables === passkey.credentialId, () =>
                    onRemove(passkey),
                  )}
                >
                  {ACCOUNT_LABELS.remove}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <AddPasskeyForm
        add={add}
        onAdded={(passkey) => {
          clearStale([remove, removePasskeyMutationKey]);
          setStatus(`${passkey.name} added.`);
        }}
      />
      <p className="save-status" role="status">
        {status}
      </p>
      {renaming && (
        <RenamePasskeyModal
          passkey={renaming}
          onClose={() => setRenaming(null)}
          onRenamed={(passkey) => {
            setRenaming(null);
            clearStale([add, addPasskeyMutationKey], [remove, removePasskeyMutationKey]);
            setStatus(`Renamed to ${passkey.name}.`);
          }}
        />
      )}
    </ProfileSection>
  );
}
