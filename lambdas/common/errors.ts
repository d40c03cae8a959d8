/** Typed HTTP errors: each carries a status code and a message that is safe to show the caller. */
import { API_MESSAGES } from '../../shared/messages';

export class HttpError extends Error {
  override readonly name: string = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export class BadRequest extends HttpError {
  override readonly name = 'BadRequest';
  constructor(message: string, details?: unknown) {
    super(400, message, details);
  }
}
/** 401: SPEC's 'Unauthorized' unless a screen's own text is given. */
export class Unauthorized extends HttpError {
  override readonly name = 'Unauthorized';
  constructor(message: string = API_MESSAGES.unauthorized) {
    super(401, message);
  }
}
/**
 * A sign-in with a passkey the server does not know (removed, or never registered): 401 with
 * `unknownCredential: true`, so the browser can be told to stop offering it (the WebAuthn Signal
 * API's `signalUnknownCredential`, SPEC-2 section 3.1). It names nothing the caller did not send.
 */
export class UnknownCredential extends HttpError {
  override readonly name = 'UnknownCredential';
  readonly fields = { unknownCredential: true } as const;
  constructor(message: string) {
    super(401, message);
  }
}
export class Forbidden extends HttpError {
  override readonly name = 'Forbidden';
  constructor(message: string) {
    super(403, message);
  }
}
export class NotFound extends HttpError {
  override readonly name = 'NotFound';
  constructor(message: string) {
    super(404, message);
  }
}
export class Conflict extends HttpError {
  override readonly name = 'Conflict';
  constructor(message: string) {
    super(409, message);
  }
}
export class PayloadTooLarge extends HttpError {
  override readonly name = 'PayloadTooLarge';
  constructor(message: string) {
    super(413, message);
  }
}
export class UnsupportedMediaType extends HttpError {
  override readonly name = 'UnsupportedMediaType';
  constructor(message: string) {
    super(415, message);
  }
}
/** 422: the request is well formed, but cannot be done as sent (an Idempotency-Key reused with another body). */
export class UnprocessableContent extends HttpError {
  override readonly name = 'UnprocessableContent';
  constructor(message: string) {
    super(422, message);
  }
}
/**
 * 422 when the item that holds an idempotency key was stored by another request (another fingerprint,
 * ADR 061). A key stored before fingerprints were kept has none: taken as this request, as it was then.
 */
export const requireSameRequest = (stored: unknown, sent: string): void => {
  if (stored !== undefined && stored !== sent)
    throw new UnprocessableContent(API_MESSAGES.idempotencyKeyMismatch);
};
export class TooManyRequests extends HttpError {
  override readonly name = 'TooManyRequests';
  constructor(message: string) {
    super(429, message);
  }
}
export class ServiceUnavailable extends HttpError {
  override readonly name = 'ServiceUnavailable';
  constructor(message: string) {
    super(503, message);
  }
}
