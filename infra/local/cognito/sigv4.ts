/**
 * AWS Signature Version 4 for the admin calls: the endpoint knows one access key pair (drawn per run,
 * handed to the local Lambdas as the cloud hands them IAM credentials) and recomputes the signature
 * of every signed request over its method, path, query, signed headers and body. The refusals carry
 * the types, statuses and messages AWS answers with (docs/decisions/052-local-cognito-rotation-and-credentials.md).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  incompleteSignature,
  invalidSignature,
  missingAuthenticationToken,
  unrecognizedClient,
} from './errors';

export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** What arrived on the wire, untouched: the signature covers it byte for byte. */
export interface SignedRequest {
  readonly method: string;
  /** Path and query as sent (`IncomingMessage.url`). */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface SignatureScope {
  readonly credentials: AwsCredentials;
  readonly region: string;
  readonly service: string;
  /** The server's clock, epoch milliseconds. */
  readonly nowMs: number;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const TERMINATOR = 'aws4_request';
/** AWS refuses a signature dated more than 5 minutes before or after its own clock. */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * A fresh random key pair shaped like AWS's: a 20-character key id (prefixed `LOCAL`, so it is never
 * mistaken for a real one) and a 40-character secret.
 */
export const generateCredentials = (): AwsCredentials => ({
  accessKeyId: `LOCAL${randomBytes(8).toString('hex').toUpperCase().slice(0, 15)}`,
  secretAccessKey: randomBytes(30).toString('base64'),
});

const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding, as SigV4 wants it: everything but unreserved characters. */
const escapeUri = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The path as the AWS SDK canonicalises it: dot segments resolved, empty ones dropped, escaped again. */
const canonicalPath = (path: string): string => {
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const trailing = segments.length > 0 && path.endsWith('/') ? '/' : '';
  const normalized = `${path.startsWith('/') ? '/' : ''}${segments.join('/')}${trailing}`;
  return escapeUri(normalized).replace(/%2F/g, '/');
};

const decodeComponent = (value: string): string => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/** Query parameters sorted by name, then value, each side encoded. */
const canonicalQuery = (query: string): string =>
  query
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      const [name, value] = at === -1 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
      return [escapeUri(decodeComponent(name)), escapeUri(decodeComponent(value))] as const;
    })
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');

const headerValue = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value.join(',') : value).trim().replace(/\s+/g, ' ');
};

interface Authorization {
  readonly accessKeyId: string;
  readonly date: string;
  readonly region: string;
  readonly service: string;
  readonly terminator: string;
  readonly signedHeaders: readonly string[];
  readonly signature: string;
}

/** The three parts of `AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…`. */
const parseAuthorization = (header: string): Authorization => {
  const [algorithm = '', ...rest] = header.trim().split(/\s+/);
  const params = new Map<string, string>();
  for (const part of rest.join(' ').split(',')) {
    const at = part.indexOf('=');
    if (at > 0) params.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  const missing = ['Credential', 'Signature', 'SignedHeaders'].filter((name) => !params.get(name));
  if (algorithm !== ALGORITHM || missing.length > 0) {
    throw incompleteSignature(
      algorithm === ALGORITHM
        ? missing.map((name) => `Authorization header requires '${name}' parameter.`).join(' ')
        : `Unsupported AWS 'algorithm': '${ALGORITHM}' is the only one supported.`,
    );
  }
  const credential = (params.get('Credential') ?? '').split('/');
  if (credential.length !== 5 || credential.some((part) => part === '')) {
    throw incompleteSignature(
      'Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term.',
    );
  }
  const [accessKeyId, date, region, service, terminator] = credential as [
    string,
    string,
    string,
    string,
    string,
  ];
  return {
    accessKeyId,
    date,
    region,
    service,
    terminator,
    signedHeaders: (params.get('SignedHeaders') ?? '').toLowerCase().split(';'),
    signature: params.get('Signature') ?? '',
  };
};

const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

const parseAmzDate = (value: string): number | undefined => {
  const match = AMZ_DATE.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  return Number.isNaN(ms) ? undefined : ms;
};

const formatAmzDate = (ms: number): string => new Date(ms).toISOString().replace(/[-:]|\.\d{3}/g, '');

/** The signature a holder of `secret` computes for this request, as lower-case hex. */
export const computeSignature = (
  request: SignedRequest,
  secret: string,
  scope: { readonly amzDate: string; readonly region: string; readonly service: string },
  signedHeaders: readonly string[],
): string => {
  const url = request.url;
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt + 1);
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalPath(path),
    canonicalQuery(query),
    ...signedHeaders.map((name) => `${name}:${headerValue(request.headers, name) ?? ''}`),
    '',
    signedHeaders.join(';'),
    sha256Hex(request.body),
  ].join('\n');
  const day = scope.amzDate.slice(0, 8);
  const credentialScope = `${day}/${scope.region}/${scope.service}/${TERMINATOR}`;
  const stringToSign = [ALGORITHM, scope.amzDate, credentialScope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = [day, scope.region, scope.service, TERMINATOR].reduce<Buffer>(
    (key, part) => hmac(key, part),
    Buffer.from(`AWS4${secret}`, 'utf8'),
  );
  return createHmac('sha256', signingKey).update(stringToSign).digest('hex');
};

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
};

const SIGNATURE_MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';

/**
 * Accepts a request signed with `scope.credentials` for this region and service within five
 * minutes of now; otherwise throws what AWS answers: MissingAuthenticationTokenException (no
 * Authorization), IncompleteSignatureException (malformed), UnrecognizedClientException (unknown
 * key id), InvalidSignatureException (wrong scope, stale date, or a signature that does not match).
 */
export const verifySignature = (request: SignedRequest, scope: SignatureScope): void => {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header.trim() === '') throw missingAuthenticationToken();
  const auth = parseAuthorization(header);

  const amzDate = headerValue(request.headers, 'x-amz-date');
  if (amzDate === undefined) {
    throw incompleteSignature(
      "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.",
    );
  }
  const signedAt = parseAmzDate(amzDate);
  if (signedAt === undefined) {
    throw incompleteSignature(`X-Amz-Date must be in the ISO-8601 basic format, e.g. 20150830T123600Z.`);
  }
  if (auth.date !== amzDate.slice(0, 8)) {
    throw invalidSignature(
      `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${auth.date}' != '${amzDate.slice(0, 8)}', from '${amzDate}'.`,
    );
  }
  if (auth.region !== scope.region) {
    throw invalidSignature(`Credential should be scoped to a valid region.`);
  }
  if (auth.service !== scope.service) {
    throw invalidSignature(`Credential should be scoped to correct service: '${scope.service}'.`);
  }
  if (auth.terminator !== TERMINATOR) {
    throw invalidSignature(`Credential should be scoped with a valid terminator: '${TERMINATOR}'.`);
  }
  if (!auth.signedHeaders.includes('host')) {
    throw invalidSignature("'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.");
  }
  if (!sameText(auth.accessKeyId, scope.credentials.accessKeyId)) throw unrecognizedClient();

  const now = formatAmzDate(scope.nowMs);
  if (signedAt < scope.nowMs - MAX_CLOCK_SKEW_MS) {
    throw invalidSignature(
      `Signature expired: ${amzDate} is now earlier than ${formatAmzDate(scope.nowMs - MAX_CLOCK_SKEW_MS)} (${now} - 5 min.)`,
    );
  }
  if (signedAt > scope.nowMs + MAX_CLOCK_SKEW_MS) {
    throw invalidSignature(
      `Signature not yet current: ${amzDate} is still later than ${formatAmzDate(scope.nowMs + MAX_CLOCK_SKEW_MS)} (${now} + 5 min.)`,
    );
  }

  // Sorted and without duplicates, as the canonical request has them: a client that signed any
  // other list computed another signature.
  const signedHeaders = [...new Set(auth.signedHeaders)].sort();
  const expected = computeSignature(
    request,
    scope.credentials.secretAccessKey,
    { amzDate, region: scope.region, service: scope.service },
    signedHeaders,
  );
  if (!sameText(expected, auth.signature.toLowerCase())) throw invalidSignature(SIGNATURE_MISMATCH);
};
