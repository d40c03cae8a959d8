/**
 * The security headers of the SPA, defined once. CloudFront's response-headers policy
 * (infra/constructs/spa-site.ts) and the local server (infra/local/security-headers.ts, for
 * `npm start` and the browser tests) are both built from this module, so the browser journeys run
 * under the policy the cloud sends (docs/decisions/051).
 *
 * Plain data with no imports: the local server loads it without the CDK.
 */

/** One CSP directive: its name and its sources, in order. */
export type CspDirective = readonly [name: string, sources: readonly string[]];

/**
 * The Content-Security-Policy directives: nothing but the app itself, plus the origins it calls
 * (`connect-src`). In the cloud those are the API and Cognito; locally everything is same-origin.
 */
export const cspDirectives = (connectSources: readonly string[]): CspDirective[] => [
  ['default-src', ["'self'"]],
  ['script-src', ["'self'"]],
  ['style-src', ["'self'"]],
  ['img-src', ["'self'", 'data:']],
  ['font-src', ["'self'"]],
  ['connect-src', ["'self'", ...connectSources]],
  ['manifest-src', ["'self'"]],
  ['worker-src', ["'self'"]],
  ['object-src', ["'none'"]],
  ['base-uri', ["'self'"]],
  ['form-action', ["'self'"]],
  ['frame-ancestors', ["'none'"]],
  ['upgrade-insecure-requests', []],
];

/** Directives as the header carries them: `name source source; name ...`. */
export const serializeCsp = (directives: readonly CspDirective[]): string =>
  directives.map(([name, sources]) => [name, ...sources].join(' ')).join('; ');

/** Adds sources to some directives (the dev server's delta), keeping every directive and its order. */
export const withSources = (
  directives: readonly CspDirective[],
  additions: Readonly<Record<string, readonly string[]>>,
): CspDirective[] => {
  const unknown = Object.keys(additions).filter((name) => !directives.some(([n]) => n === name));
  if (unknown.length > 0) throw new Error(`No such CSP directive to extend: ${unknown.join(', ')}`);
  return directives.map(([name, sources]) => [name, [...sources, ...(additions[name] ?? [])]]);
};

/** Builds the Content-Security-Policy header value. */
export const contentSecurityPolicy = (connectSources: readonly string[]): string =>
  serializeCsp(cspDirectives(connectSources));

/** HSTS: two years, subdomains included (no preload: that is a commitment made outside the stack). */
export const HSTS = { maxAgeSeconds: 730 * 24 * 60 * 60, includeSubdomains: true } as const;

export const FRAME_OPTION = 'DENY';

/** Activation links carry the code in the query string: never send it anywhere. */
export const REFERRER_POLICY = 'no-referrer';

/** Passkeys for this origin only; no other powerful feature for anyone. */
export const PERMISSIONS_POLICY =
  'publickey-credentials-create=(self), publickey-credentials-get=(self), camera=(), microphone=(), geolocation=(), payment=(), usb=()';

export const CROSS_ORIGIN_OPENER_POLICY = 'same-origin';

/** Headers the response-headers policy sends as custom headers (CloudFront has no field for them). */
export const CUSTOM_HEADERS = {
  'Permissions-Policy': PERMISSIONS_POLICY,
  'Cross-Origin-Opener-Policy': CROSS_ORIGIN_OPENER_POLICY,
} as const;

/**
 * Every header as the browser receives it (lower-case names), for an app whose page calls
 * `connectSources` besides its own origin.
 */
export const securityHeaders = (connectSources: readonly string[]): Record<string, string> => ({
  'content-security-policy': contentSecurityPolicy(connectSources),
  'strict-transport-security': `max-age=${HSTS.maxAgeSeconds}${HSTS.includeSubdomains ? '; includeSubDomains' : ''}`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': FRAME_OPTION,
  'referrer-policy': REFERRER_POLICY,
  ...Object.fromEntries(Object.entries(CUSTOM_HEADERS).map(([name, value]) => [name.toLowerCase(), value])),
});
