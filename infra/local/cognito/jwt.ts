/**
 * RS256 signing on node:crypto with one 2048-bit key per pool state, and the JWKS that lets
 * aws-jwt-verify (and API Gateway's stand-in) check what we sign.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
} from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { SigningKeyRecord } from './state';

export interface PublicJwk {
  readonly kty: 'RSA';
  readonly kid: string;
  readonly n: string;
  readonly e: string;
  readonly alg: 'RS256';
  readonly use: 'sig';
}

export interface SigningKey {
  readonly kid: string;
  readonly jwk: PublicJwk;
  sign(payload: Record<string, unknown>): string;
  /** The payload of a token this key signed, or undefined for anything else. */
  verify(token: string): Record<string, unknown> | undefined;
}

const b64url = (value: Buffer | string): string => Buffer.from(value).toString('base64url');

const rsaComponents = (publicKey: KeyObject): { n: string; e: string } => {
  const { n, e } = publicKey.export({ format: 'jwk' });
  if (typeof n !== 'string' || typeof e !== 'string') throw new Error('signing key is not an RSA key');
  return { n, e };
};

/** RFC 7638 thumbprint: a stable kid derived from the key itself. */
const thumbprint = ({ n, e }: { n: string; e: string }): string =>
  createHash('sha256')
    .update(JSON.stringify({ e, kty: 'RSA', n }))
    .digest('base64url');

export const generateSigningKeyRecord = (nowMs: number): SigningKeyRecord => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    kid: thumbprint(rsaComponents(publicKey)),
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    createdAt: nowMs,
  };
};

export const loadSigningKey = (record: SigningKeyRecord): SigningKey => {
  const privateKey = createPrivateKey(record.privateKeyPem);
  const publicKey = createPublicKey(privateKey);
  const jwk: PublicJwk = {
    kty: 'RSA',
    kid: record.kid,
    ...rsaComponents(publicKey),
    alg: 'RS256',
    use: 'sig',
  };
  const header = b64url(JSON.stringify({ kid: record.kid, alg: 'RS256' }));

  return {
    kid: record.kid,
    jwk,
    sign: (payload) => {
      const signingInput = `${header}.${b64url(JSON.stringify(payload))}`;
      return `${signingInput}.${sign('sha256', Buffer.from(signingInput), privateKey).toString('base64url')}`;
    },
    verify: (token) => {
      const parts = token.split('.');
      if (parts.length !== 3) return undefined;
      const [head, body, signature] = parts as [string, string, string];
      const decoded = decodeJson(head);
      if (decoded?.['alg'] !== 'RS256' || decoded['kid'] !== record.kid) return undefined;
      const valid = verify(
        'sha256',
        Buffer.from(`${head}.${body}`),
        publicKey,
        Buffer.from(signature, 'base64url'),
      );
      return valid ? decodeJson(body) : undefined;
    },
  };
};

const decodeJson = (segment: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};
