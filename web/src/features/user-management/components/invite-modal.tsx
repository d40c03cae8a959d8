import { useState } from 'react';
import type { Invitation } from '../../../../../shared/schemas';
import { Modal } from '../../../components/overlay/modal';
import { InviteForm } from './invite-form';
import { IssuedCode } from './issued-code';

/** Invite, then show the code to pass on. */
export function InviteModal({ onClose }: { onClose: () => void }) {
  const [created, setCreated] = useState<Invitation | null>(null);
  return (
    <Modal
      title="Invite User"
      description={created ? undefined : 'They will get an activation code to set up a passkey.'}
      onClose={onClose}
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
        <InviteForm onCreated={setCreated} onCancel={onClose} />
      )}
    </Modal>
  );
}
