/**
 * HTTP framing of Cognito's JSON 1.1 protocol: which requests are ours, reading a bounded body,
 * and writing answers and errors the way the AWS SDK and Amplify parse them.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestTooLarge, serialization, type CognitoError } from './errors';

export const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this we stop draining and drop the connection; below it we drain so the client sees the 413. */
const MAX_DRAIN_BYTES = 16 * MAX_BODY_BYTES;

const JSON_CONTENT_TYPES = ['application/x-amz-json-1.1', 'application/x-amz-json-1.0', 'application/json'];

export const requestPath = (req: IncomingMessage): string => {
  try {
    return new URL(req.url ?? '/', 'http://local').pathname;
  } catch {
    return '';
  }
};

/** The action named by `x-amz-target`, or undefined when the request is not a Cognito call. */
export const targetAction = (req: IncomingMessage): string | undefined => {
  const target = req.headers['x-amz-target'];
  if (typeof target !== 'string' || !target.startsWith(TARGET_PREFIX)) return undefined;
  return target.slice(TARGET_PREFIX.length);
};

/**
 * A CORS preflight for a Cognito call: only another origin sends one (the SPA shares the endpoint's
 * origin), and it is refused. Other OPTIONS belong to the host server.
 */
export const isCognitoPreflight = (req: IncomingMessage): boolean => {
  const requested = req.headers['access-control-request-headers'];
  return typeof requested === 'string' && requested.toLowerCase().includes('x-amz-target');
};

export const hasJsonContentType = (req: IncomingMessage): boolean => {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return JSON_CONTENT_TYPES.includes(type);
};

/**
 * Reads the body, refusing more than 1 MB. An oversized body is drained rather than cut off so the
 * client reads a clean 413 instead of a connection reset.
 */
export const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DRAIN_BYTES) {
        req.destroy();
        reject(requestTooLarge());
        return;
      }
      if (size > MAX_BODY_BYTES) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => (tooLarge ? reject(requestTooLarge()) : resolve(Buffer.concat(chunks))));
    req.on('error', reject);
  });

/** The JSON object of a request body; an empty body reads as `{}` and lets input validation speak. */
export const parseJsonObject = (body: Buffer): Record<string, unknown> => {
  if (body.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw serialization('Request body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw serialization('Request body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
};

export const sendJson = (
  res: ServerResponse,
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): void => {
  const payload = JSON.stringify(body);
  res.writeHead(statusCode, {
    'content-type': 'application/x-amz-json-1.1',
    'content-length': String(Buffer.byteLength(payload)),
    // Answers carry tokens: never let a proxy or the browser keep them.
    'cache-control': 'no-store',
    // The pool's clock (the process's), as AWS's answers carry AWS's: the SDK corrects its signing
    // clock by this header, so it must not be Node's own, which ignores a test's faked clock.
    date: new Date().toUTCString(),
    'x-amzn-requestid': randomUUID(),
    ...headers,
  });
  res.end(payload);
};

export const sendError = (res: ServerResponse, error: CognitoError): void => {
  sendJson(
    res,
    error.statusCode,
    { __type: error.type, message: error.message },
    { 'x-amzn-errortype': error.type },
  );
};

/** The only CORS message there is: no. Without an Access-Control-Allow-Origin the browser blocks the call. */
export const PREFLIGHT_REFUSED =
  'Cross-origin calls are not allowed: the local Cognito endpoint serves its own origin only.';

/**
 * Refuses a cross-origin preflight: no `Access-Control-*` header at all (never `*`), so the browser
 * sends nothing after it. The SPA, the API and this endpoint share one origin (decision 051).
 */
export const sendPreflight = (res: ServerResponse): void => {
  const payload = JSON.stringify({ message: PREFLIGHT_REFUSED });
  res.writeHead(403, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(payload)),
    'cache-control': 'no-store',
  });
  res.end(payload);
};
