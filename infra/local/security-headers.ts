/**
 * The headers the local server sends (docs/decisions/051). The SPA gets the production definition
 * of infra/security-headers.ts, the one CloudFront's response-headers policy is built from, with
 * `connect-src 'self'` (the API and the Cognito endpoint share the page's origin) and two written
 * differences:
 *
 * - no `Strict-Transport-Security`: the local server speaks plain http://localhost, where browsers
 *   ignore it (RFC 6797 section 8.1); it is the one header whose effect outlives the answer, and a
 *   localhost ever served over TLS would be pinned to HTTPS for two years, other projects included.
 * - in dev mode (Vite, hot reload) only, the HTML document's CSP adds a nonce, fresh for every
 *   answer, to `script-src` and `style-src` (`devServerAdditions`): Vite's HTML carries the React
 *   refresh preamble as an inline module script, and Vite's client injects the CSS of every imported
 *   stylesheet and its error overlay as `<style>` elements, each carrying that nonce. The hot-reload
 *   WebSocket is ws://localhost:<port>, which `connect-src 'self'` already allows (CSP 3 matches `ws:`
 *   to an `http:` page's own host and port), so it needs nothing. `--prod` has no difference at all.
 *
 * Every other answer (the API, the Cognito endpoint, the JWKS, the server's own errors) is JSON that
 * no page may render or frame: `LOCAL_BASE_HEADERS`.
 */
import type { ServerResponse } from 'node:http';
import { API_ANSWER_HEADERS } from '../../shared/api-headers';
import { cspDirectives, securityHeaders, serializeCsp, withSources } from '../security-headers';

/** Headers of the definition that only mean something over HTTPS, so the local server leaves them out. */
export const HTTPS_ONLY_HEADERS: readonly string[] = ['strict-transport-security'];

/** Locally the page calls only its own origin: the API and `/cognito` are served beside it. */
export const LOCAL_CONNECT_SOURCES: readonly string[] = [];

/** Every SPA answer in `--prod` mode, and every SPA answer but the HTML document in dev mode. */
export const localSpaHeaders = (): Record<string, string> =>
  Object.fromEntries(
    Object.entries(securityHeaders(LOCAL_CONNECT_SOURCES)).filter(
      ([name]) => !HTTPS_ONLY_HEADERS.includes(name),
    ),
  );

/** The dev server's whole delta over the production CSP: the nonce its HTML and injected styles carry. */
export const devServerAdditions = (nonce: string): Record<string, readonly string[]> => ({
  'script-src': [`'nonce-${nonce}'`],
  'style-src': [`'nonce-${nonce}'`],
});

/** The CSP of the HTML document the dev server answers with `nonce`. */
export const devDocumentPolicy = (nonce: string): string =>
  serializeCsp(withSources(cspDirectives(LOCAL_CONNECT_SOURCES), devServerAdditions(nonce)));

/** The dev server's HTML document: the production headers, with the nonce added to its CSP. */
export const devDocumentHeaders = (nonce: string): Record<string, string> => ({
  ...localSpaHeaders(),
  'content-security-policy': devDocumentPolicy(nonce),
});

/**
 * Every answer that is not the SPA: nothing in it may run, load, be sniffed as HTML or be framed. The
 * same as the stage's API answers (`API_ANSWER_HEADERS`), with the names as Node reads them back.
 */
export const LOCAL_BASE_HEADERS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(API_ANSWER_HEADERS).map(([name, value]) => [name.toLowerCase(), value]),
);

/** Sets headers on an answer not yet written; `writeHead` may still override any of them. */
export const setHeaders = (res: ServerResponse, headers: Readonly<Record<string, string>>): void => {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
};
