import { describe, expect, it } from 'vitest';
import { firstPublicScreen } from '../../../../web/src/app/first-screen';
import { hasStoredSession } from '../../../../web/src/lib/auth/stored-session';

const CLIENT = 'test-client-id';
/** The cookies Amplify leaves after a sign-in (docs/decisions/027), abridged. */
const SIGNED_IN = [
  `CognitoIdentityServiceProvider.${CLIENT}.LastAuthUser=c2a9d1b4`,
  `CognitoIdentityServiceProvider.${CLIENT}.c2a9d1b4.accessToken=eyJ.a.b`,
  `CognitoIdentityServiceProvider.${CLIENT}.c2a9d1b4.idToken=eyJ.c.d`,
].join('; ');

describe('hasStoredSession', () => {
  it('is false without cookies, or with only cookies of something else', () => {
    expect(hasStoredSession(CLIENT, '')).toBe(false);
    expect(hasStoredSession(CLIENT, 'theme=dark; other=1')).toBe(false);
    // Another app client of the same host: not this app's session.
    expect(hasStoredSession(CLIENT, 'CognitoIdentityServiceProvider.other-client.LastAuthUser=x')).toBe(
      false,
    );
    // The client id must be a whole segment.
    expect(hasStoredSession(CLIENT, `CognitoIdentityServiceProvider.${CLIENT}x.LastAuthUser=x`)).toBe(false);
  });

  it("is true with any of this app client's Amplify cookies, however few are left", () => {
    expect(hasStoredSession(CLIENT, SIGNED_IN)).toBe(true);
    expect(hasStoredSession(CLIENT, `a=1; CognitoIdentityServiceProvider.${CLIENT}.x.refreshToken=r`)).toBe(
      true,
    );
    // js-cookie percent-encodes what a cookie name may not hold; the names are compared decoded.
    expect(hasStoredSession('with space', 'CognitoIdentityServiceProvider.with%20space.LastAuthUser=x')).toBe(
      true,
    );
  });
});

describe('firstPublicScreen', () => {
  it.each([
    ['/signin', 'signin'],
    ['/signin/', 'signin'],
    ['/SignIn', 'signin'],
    ['/SIGNIN//', 'signin'],
    ['/activate', 'activate'],
    ['/Activate/', 'activate'],
  ] as const)('shows %s alone to a browser without a session', (path, screen) => {
    expect(firstPublicScreen(path, CLIENT, '')).toBe(screen);
  });

  it('loads the whole app for /signin and /activate when a session may be stored', () => {
    // /signin: the guard then goes to the dashboard; /activate: the app drops the previous person's cached data.
    expect(firstPublicScreen('/signin', CLIENT, SIGNED_IN)).toBeNull();
    expect(firstPublicScreen('/activate', CLIENT, SIGNED_IN)).toBeNull();
  });

  it.each(['/', '/dashboard', '/signin/more', '/signing', '/activate/x', '/activated', '/unauthorized'])(
    'loads the whole app for %s',
    (path) => {
      expect(firstPublicScreen(path, CLIENT, '')).toBeNull();
    },
  );
});
