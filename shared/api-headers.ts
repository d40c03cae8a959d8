/**
 * The headers of every API answer that is not the SPA, in the stage and locally (docs/decisions/051):
 * JSON that no page may run, load, sniff as HTML or frame, and that no cache keeps. The Lambda wrapper
 * sends them on every handler's answer, API Gateway on its own errors (401, 403, 429, 5xx), and the
 * local server on everything it answers outside the SPA.
 */
export const API_ANSWER_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};
