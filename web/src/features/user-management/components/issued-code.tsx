import { useEffect, useRef, useState } from 'react';
import { COPY_CONFIRMATION_MS } from '../../../../../shared/constants';
import { formatActivationCode } from '../../../../../shared/activation-code';
import { MESSAGES } from '../../../../../shared/messages';
import { Alert } from '../../../components/alert';
import { activationLink } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format';

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

interface IssuedCodeProps {
  /** Who the code is for. */
  email: string;
  activationCode: string;
  /** When the code stops working, where the server says. */
  expiresAt?: string | undefined;
  /** What just happened ('Invitation created for ...'). */
  heading: string;
  /** Anything the admin should know besides the steps (what happens to the old passkeys). */
  note?: string | undefined;
  onDone: () => void;
}

/**
 * A new activation code (an invitation's, a resent one, a recovery code) and its link, with copy
 * buttons whose confirmation fades after 3 s, and the steps the person then takes.
 */
export function IssuedCode({
  email,
  activationCode,
  expiresAt,
  heading: title,
  note,
  onDone,
}: IssuedCodeProps) {
  const [copied, setCopied] = useState<Copied>(null);
  const code = formatActivationCode(activationCode);
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
        <Alert tone="success">{title}</Alert>
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
      {expiresAt && (
        <p className="muted">
          The code works until <time dateTime={expiresAt}>{formatDateTime(expiresAt)}</time>.
        </p>
      )}
      <p className="copy-status" role="status" aria-live="polite">
        {copied ? CONFIRMATION[copied] : ''}
      </p>
      <div className="instructions">
        <p className="instructions__title">Send the link or code to {email}. They then:</p>
        <ol>
          <li>Visit the activation page (the link opens it with the code filled in).</li>
          <li>Enter their email address and the activation code.</li>
          <li>Create a passkey on their device with Face ID, Touch ID or Windows Hello.</li>
        </ol>
        {note && <p>{note}</p>}
      </div>
      <div className="form__actions">
        <button type="button" className="button button--primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
