import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TOO_MANY_SIGNIN_STARTS } from '../../../../../shared/limits';
import { MESSAGES } from '../../../../../shared/messages';
import {
  configureAuth,
  getIdToken,
  getSessionUser,
  onSessionRevoked,
  signInWithPasskeyProof,
  signOut,
} from '../../../../../web/src/lib/auth/cognito';

const amplify = vi.hoisted(() => ({
  configure: vi.fn(),
  fetchAuthSession: vi.fn(),
  signIn: vi.fn(),
  confirmSignIn: vi.fn(),
  signOut: vi.fn(),
  clearTokens: vi.fn(() => Promise.resolve()),
  loadTokens: vi.fn((): Promise<unknown> => Promise.resolve(null)),
  setKeyValueStorage: vi.fn(),
  listeners: [] as ((capsule: { payload: { event: string; data?: unknown } }) => void)[],
}));

vi.mock('aws-amplify/utils', () => ({
  /** Records what the app asked for; the real one writes cookies through js-cookie. */
  CookieStorage: class {
    constructor(readonly options: unknown) {}
  },
  Hub: {
    listen: (_channel: string, listener: (typeof amplify.listeners)[number]) => {
      amplify.listeners.push(listener);
      return () => amplify.listeners.splice(amplify.listeners.indexOf(listener), 1);
    },
  },
}));

vi.mock('aws-amplify', () => ({ Amplify: { configure: amplify.configure } }));
vi.mock('aws-amplify/auth', () => ({
  fetchAuthSession: amplify.fetchAuthSession,
  signIn: amplify.signIn,
  confirmSignIn: amplify.confirmSignIn,
  signOut: amplify.signOut,
}));
vi.mock('aws-amplify/auth/cognito', () => ({
  cognitoUserPoolsTokenProvider: {
    setKeyValueStorage: amplify.setKeyValueStorage,
    tokenOrchestrator: { clearTokens: amplify.clearTokens },
    authTokenStore: { loadTokens: amplify.loadTokens },
  },
}));

const claims = {
  sub: 'sub-1',
  'cognito:username': 'user-1',
  email: 'casey@example.com',
  'cognito:groups': ['users', 'admins', 'unknown'],
};
const session = (payload: Record<string, unknown> | undefined) => ({
  tokens: payload ? { idToken: { payload, toString: () => 'id.token.jwt' } } : undefined,
});

describe('lib/auth/cognito', () => {
  beforeEach(() => {
    amplify.fetchAuthSession.mockResolvedValue(session(undefined));
    amplify.loadTokens.mockResolvedValue(null);
  });

  it('configures the user pool, and the local endpoint when given', () => {
    const env = {
      userPoolId: 'us-west-2_abc',
      userPoolClientId: 'client',
      region: 'us-west-2',
      apiBaseUrl: '',
    };
    configureAuth({ ...env, cognitoEndpoint: undefined });
    expect(amplify.configure).toHaveBeenLastCalledWith({
      Auth: { Cognito: { userPoolId: 'us-west-2_abc', userPoolClientId: 'client' } },
    });
    configureAuth({ ...env, cognitoEndpoint: '/cognito' });
    expect(amplify.configure).toHaveBeenLastCalledWith({
      Auth: {
        Cognito: {
          userPoolId: 'us-west-2_abc',
          userPoolClientId: 'client',
          userPoolEndpoint: `${window.location.origin}/cognito`,
        },
      },
    });
  });

  const configure = () =>
    configureAuth({
      userPoolId: 'us-west-2_abc',
      userPoolClientId: 'client',
      region: 'us-west-2',
      apiBaseUrl: '',
      cognitoEndpoint: undefined,
    });

  it('keeps the tokens in secure cookies for 365 days on https, set after configure (which resets the storage)', () => {
    vi.stubGlobal('location', new URL('https://app.example.com/signin'));
    try {
      configure();
    } finally {
      vi.unstubAllGlobals();
    }
    expect(amplify.setKeyValueStorage).toHaveBeenCalledTimes(1);
    expect(amplify.setKeyValueStorage.mock.calls[0]?.[0]).toEqual({
      options: { expires: 365, secure: true, sameSite: 'strict', path: '/' },
    });
    expect(amplify.configure.mock.invocationCallOrder[0]).toBeLessThan(
      amplify.setKeyValueStorage.mock.invocationCallOrder[0]!,
    );
  });

  it('drops the Secure flag only on plain-http localhost, where Safari would discard the cookies', () => {
    // jsdom's page is http://localhost:3000/.
    configure();
    expect(amplify.setKeyValueStorage.mock.calls[0]?.[0]).toEqual({
      options: { expires: 365, secure: false, sameSite: 'strict', path: '/' },
    });
  });

  it('reads the session user from the id token: email, and roles from cognito:groups', async () => {
    amplify.fetchAuthSession.mockResolvedValue(session(claims));
    await expect(getSessionUser()).resolves.toEqual({
      username: 'user-1',
      userId: 'sub-1',
      email: 'casey@example.com',
      roles: ['admin', 'user'],
    });
    await expect(getIdToken()).resolves.toBe('id.token.jwt');
  });

  it('reads a comma-separated groups claim', async () => {
    amplify.fetchAuthSession.mockResolvedValue(session({ ...claims, 'cognito:groups': 'coaches,users' }));
    expect((await getSessionUser())?.roles).toEqual(['coach', 'user']);
  });

  it('is signed out without tokens, or when the session cannot be refreshed', async () => {
    await expect(getSessionUser()).resolves.toBeNull();
    await expect(getIdToken()).resolves.toBeUndefined();
    amplify.fetchAuthSession.mockRejectedValue(new Error('NotAuthorizedException'));
    await expect(getSessionUser()).resolves.toBeNull();
  });

  it("keeps the session when a refresh cannot be made (offline, Cognito unavailable): the failure is the caller's", async () => {
    configure();
    const cookie = 'CognitoIdentityServiceProvider.client.LastAuthUser=user-1';
    document.cookie = `${cookie}; path=/`;
    try {
      const offline = Object.assign(new Error('A network error has occurred.'), { name: 'NetworkError' });
      amplify.fetchAuthSession.mockRejectedValue(offline);
      await expect(getIdToken()).rejects.toBe(offline);
    } finally {
      document.cookie = `${cookie}; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
    }
    // A refresh Cognito refused cleared the cookies (Amplify): signed out.
    await expect(getIdToken()).resolves.toBeUndefined();
  });

  it('reads the user from the stored id token at app start when the refresh cannot be made, and only then', async () => {
    configure();
    const offline = Object.assign(new Error('A network error has occurred.'), { name: 'NetworkError' });
    amplify.fetchAuthSession.mockRejectedValue(offline);
    amplify.loadTokens.mockResolvedValue({ idToken: { payload: claims } });
    const cookie = 'CognitoIdentityServiceProvider.client.LastAuthUser=user-1';
    document.cookie = `${cookie}; path=/`;
    try {
      await expect(getSessionUser()).resolves.toEqual({
        username: 'user-1',
        userId: 'sub-1',
        email: 'casey@example.com',
        roles: ['admin', 'user'],
      });
      // Stored tokens without an id token: nobody to show.
      amplify.loadTokens.mockResolvedValueOnce({});
      await expect(getSessionUser()).resolves.toBeNull();
      // A refresh Cognito refused (the user deleted, the token revoked): signed out, even before
      // Amplify's clearing of the cookies has run.
      for (const ending of ['UserNotFoundException', 'TokenRevokedException']) {
        amplify.fetchAuthSession.mockRejectedValueOnce(Object.assign(new Error('refused'), { name: ending }));
        await expect(getSessionUser()).resolves.toBeNull();
      }
    } finally {
      document.cookie = `${cookie}; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
    }
    // A refresh Cognito refused cleared the cookies (Amplify): signed out, whatever is left in memory.
    await expect(getSessionUser()).resolves.toBeNull();
  });

  it('signs in with the proof: custom flow without SRP, then the proof as the answer', async () => {
    amplify.signIn.mockResolvedValue({
      isSignedIn: false,
      nextStep: { signInStep: 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE' },
    });
    amplify.confirmSignIn.mockImplementation(() => {
      amplify.fetchAuthSession.mockResolvedValue(session(claims));
      return Promise.resolve({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
    });

    const user = await signInWithPasskeyProof('user-1', 'proof-1', 'sub-1');

    expect(amplify.signIn).toHaveBeenCalledWith({
      username: 'user-1',
      options: {
        authFlowType: 'CUSTOM_WITHOUT_SRP',
        clientMetadata: { passkeyProof: 'proof-1', userId: 'sub-1' },
      },
    });
    expect(amplify.confirmSignIn).toHaveBeenCalledWith({
      challengeResponse: 'proof-1',
      options: { clientMetadata: { passkeyProof: 'proof-1', userId: 'sub-1' } },
    });
    expect(user.email).toBe('casey@example.com');
  });

  it('signs the previous person out before signing in someone new', async () => {
    amplify.fetchAuthSession.mockResolvedValueOnce(session(claims));
    amplify.signIn.mockResolvedValue({
      isSignedIn: false,
      nextStep: { signInStep: 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE' },
    });
    amplify.confirmSignIn.mockImplementation(() => {
      amplify.fetchAuthSession.mockResolvedValue(session(claims));
      return Promise.resolve({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
    });
    await signInWithPasskeyProof('user-1', 'proof-1', 'sub-1');
    expect(amplify.signOut.mock.invocationCallOrder[0]).toBeLessThan(
      amplify.signIn.mock.invocationCallOrder[0]!,
    );
  });

  it('fails when Cognito asks for anything but the custom challenge, or does not sign in', async () => {
    amplify.signIn.mockResolvedValue({ isSignedIn: false, nextStep: { signInStep: 'CONFIRM_SIGN_UP' } });
    await expect(signInWithPasskeyProof('u', 'p', 'i')).rejects.toThrow(MESSAGES.passkeySignInFailed);
    amplify.signIn.mockResolvedValue({
      isSignedIn: false,
      nextStep: { signInStep: 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE' },
    });
    amplify.confirmSignIn.mockResolvedValue({
      isSignedIn: false,
      nextStep: { signInStep: 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE' },
    });
    await expect(signInWithPasskeyProof('u', 'p', 'i')).rejects.toThrow(MESSAGES.passkeySignInFailed);
  });

  it("reads the user pool WAF's block (Cognito's 403) as the sign-in limit, and other failures as they are", async () => {
    const blocked = Object.assign(new Error('Request blocked'), { name: 'ForbiddenException' });
    amplify.signIn.mockRejectedValueOnce(blocked);
    await expect(signInWithPasskeyProof('u', 'p', 'i')).rejects.toThrow(TOO_MANY_SIGNIN_STARTS);
    amplify.signIn.mockResolvedValue({
      isSignedIn: false,
      nextStep: { signInStep: 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE' },
    });
    amplify.confirmSignIn.mockRejectedValueOnce(blocked);
    await expect(signInWithPasskeyProof('u', 'p', 'i')).rejects.toThrow(TOO_MANY_SIGNIN_STARTS);
    const refused = Object.assign(new Error('Incorrect username or password.'), {
      name: 'NotAuthorizedException',
    });
    amplify.confirmSignIn.mockRejectedValueOnce(refused);
    await expect(signInWithPasskeyProof('u', 'p', 'i')).rejects.toBe(refused);
  });

  it('drops the local tokens even when Amplify sign-out fails', async () => {
    amplify.signOut.mockRejectedValue(new Error(MESSAGES.networkError));
    await expect(signOut()).resolves.toBeUndefined();
    expect(amplify.clearTokens).toHaveBeenCalled();
  });

  it('reports a refused refresh as the end of the session, but not a network failure', () => {
    const ended = vi.fn();
    const unsubscribe = onSessionRevoked(ended);
    const emit = (name: string) =>
      amplify.listeners.forEach((listener) =>
        listener({ payload: { event: 'tokenRefresh_failure', data: { error: { name } } } }),
      );
    for (const kept of ['NetworkError', 'TooManyRequestsException', 'InternalErrorException']) emit(kept);
    expect(ended).not.toHaveBeenCalled();
    emit('NotAuthorizedException');
    expect(ended).toHaveBeenCalledTimes(1);
    unsubscribe();
    emit('NotAuthorizedException');
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it.each(['RefreshTokenReuseException', 'TokenRevokedException', 'UserNotFoundException'])(
    'reports %s on refresh as the end of the session (Amplify has dropped the tokens)',
    (name) => {
      const ended = vi.fn();
      const unsubscribe = onSessionRevoked(ended);
      amplify.listeners.forEach((listener) =>
        listener({ payload: { event: 'tokenRefresh_failure', data: { error: { name } } } }),
      );
      unsubscribe();
      expect(ended).toHaveBeenCalledTimes(1);
    },
  );
});
