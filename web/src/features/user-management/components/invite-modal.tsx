import { Modal } from '../../../components/overlay/modal';
import { useCreateInvitation } from '../api/create-invitation';
import { InviteForm } from './invite-form';
import { IssuedCode } from './issued-code';

/**
 * Invite, then show the code to pass on. Not closable while the invitation is being created: it
 * would still be created, and its code (shown only here) or the refusal would go unseen.
 */
export function InviteModal({ onClose }: { onClose: () => void }) {
  const create = useCreateInvitation();
  const created = create.data;
  return (
    <Modal
      title="Invite User"
      description={created ? undefined : 'They will get an activation code to set up a passkey.'}
      onClose={onClose}
      busy={create.isPending}
    >
      {created ? (
        <IssuedCode
          email={created.email}
          activationCode={created.activationCode}
          expiresAt={created.expiresAt}
          heading={`Invitation created for ${created.email}.`}
          onDone={onClose}
        />
      ) : (
        <InviteForm create={create} onCancel={onClose} />
      )}
    </Modal>
  );
}
