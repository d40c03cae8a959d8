import { useEffect, useRef, useState } from 'react';
import { COPY_CONFIRMATION_MS } from '../../../../../shared/constants';
import { formatActivationCode } from '../../../../../shared/activation-code';
import { MESSAGES } from '../../../../../shared/messages';
import type { Invitation } from '../../../../../shared/schemas';
import { Alert } from '../../../components/alert';
import { activationLink } from '../../../config/paths';

type Copied = 'code' | 'link' | 'failed' | null;

const CONFIRMATION: Record<Exclude<Copied, null>, string> = {
  code: MESSAGES.codeCopied,
  link: MESSAGES.linkCopied,
  failed: 'Copying is blocked in this browser. Select the text and copy it yourself.',
};

interface CopyBoxProps {
  label: string;
  value: string;
  button: string;
  /** Shown in the code style (monospace, spaced). */
  code?: boolean;
  onCopy: () => void;
}

function CopyBox({ label, value, button, code = false, onCopy }: CopyBoxProps) {
  return (
    <div className="copy-box">
      <dt className="copy-box__label">{label}</dt>
      <dd className={code ? 'copy-box__value copy-box__value--code' : 'copy-box__value'}>{value}</dd>
      <dd>
        <button type="button" className="button button--secondary button--small" onClick={onCopy}>
          {button}
        </button>
      </dd>
    </div>
  );
}

/** The new invitation's code and link, with copy buttons whose confirmation fades after 3 s. */
export function InvitationCreated({ invitation, onDone }: { invitation: Invitation; onDone: () => void }) {
  const [copied, setCopied] = useState<Copied>(null);
  const code = formatActivationCode(invitation.activationCode);
  const link = activationLink(window.location.origin, code);

  const heading = useRef<HTMLDivElement>(null);
  // The form that had focus is gone: start reading from the confirmation.
  useEffect(() => heading.current?.focus(), []);

  useEffect(() => {
    if (!copied) return undefined;
    const timer = window.setTimeout(() => setCopied(null), COPY_CONFIRMATION_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = (text: string, what: 'code' | 'link') => {
    navigator.clipboard.writeText(text).then(
      () => setCopied(what),
      () => setCopied('failed'),
    );
  };

  return (
    <div className="stack">
      <div ref={heading} tabIndex={-1} className="focus-target">
        <Alert tone="success">Invitation created for {invitation.email}.</Alert>
      </div>
      <dl className="stack">
        <CopyBox
          label="Activation code"
          value={code}
          button="Copy Code"
          code
          onCopy={() => copy(code, 'code')}
        />
        <CopyBox label="Activation link" value={link} button="Copy Link" onCopy={() => copy(link, 'link')} />
      </dl>
      <p className="copy-status" role="status" aria-live="polite">
        {copied ? CONFIRMATION[copied] : ''}
      </p>
      <div className="instructions">
        <p className="instructions__title">Send the link or code to {invitation.email}. They then:</p>
        <ol>
          <li>Visit the activation page (the link opens it with the code filled in).</li>
          <li>Enter their email address and the activation code.</li>
          <li>Create a passkey on their device with Face ID, Touch ID or Windows Hello.</li>
        </ol>
      </div>
      <div className="form__actions">
        <button type="button" className="button button--primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
