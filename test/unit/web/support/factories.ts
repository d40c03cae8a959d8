import type { Passkey } from '../../../../shared/account';
import type { AuditEvent } from '../../../../shared/audit';
import type { CoachClient, CoachNote } from '../../../../shared/coaching';
import type { Role } from '../../../../shared/constants';
import { MEASUREMENTS } from '../../../../shared/health';
import type { HealthLog, Measurement } from '../../../../shared/health-schemas';
import type { AdminUserListItem, Invitation, UserProfile } from '../../../../shared/schemas';
import type { SessionUser } from '../../../../web/src/lib/auth/session-user';

/** Cognito `sub`, the profile's userId. */
export const USER_ID = '6f1c1f7e-3c5e-4b8a-9a43-2f1d3c4b5a69';
/**
 * The Cognito username: also an opaque UUID, but never the same as USER_ID here, so a call that
 * swaps the two (signInWithPasskeyProof(cognitoUsername, proof, userId)) fails its test.
 */
export const COGNITO_USERNAME = 'c2a9d1b4-57e0-4f3a-8b6d-0e4f5a6b7c8d';

export const sessionUser = (roles: Role[] = ['user'], overrides: Partial<SessionUser> = {}): SessionUser => ({
  username: COGNITO_USERNAME,
  userId: USER_ID,
  email: 'casey@example.com',
  roles,
  ...overrides,
});

/** A profile whose onboarding is done, so no modal opens. */
export const completeProfile = (overrides: Partial<UserProfile> = {}): UserProfile => ({
  userId: USER_ID,
  email: 'casey@example.com',
  name: 'Casey Jordan',
  createdAt: '2025-01-02T10:00:00.000Z',
  updatedAt: '2025-01-02T10:00:00.000Z',
  preferredName: 'Casey',
  familyName: 'Jordan',
  dateOfBirth: '1990-04-15',
  heightCm: 175,
  sexAssignedAtBirth: 'female',
  measurementSystem: 'metric',
  timezone: 'Europe/Amsterdam',
  locale: 'en-GB',
  metadata: { onboardingCompleted: true },
  ...overrides,
});

/** A profile straight after activation: only the basics the server knows. */
export const newProfile = (overrides: Partial<UserProfile> = {}): UserProfile => ({
  userId: USER_ID,
  email: 'casey@example.com',
  name: 'casey@example.com',
  createdAt: '2025-01-02T10:00:00.000Z',
  updatedAt: '2025-01-02T10:00:00.000Z',
  sexAssignedAtBirth: 'prefer-not-to-say',
  measurementSystem: 'metric',
  metadata: { onboardingCompleted: false },
  ...overrides,
});

export const invitation = (overrides: Partial<Invitation> = {}): Invitation => ({
  email: 'pending@example.com',
  status: 'pending',
  activationCode: 'ABCD2345EFGH6789',
  roles: ['users'],
  createdAt: '2025-03-01T09:00:00.000Z',
  ...overrides,
});

export const adminUser = (overrides: Partial<AdminUserListItem> = {}): AdminUserListItem => ({
  userId: '0b7e6b2c-7d1a-4c55-8f0e-1a2b3c4d5e6f',
  email: 'active@example.com',
  preferredName: 'Alex',
  familyName: 'Rivera',
  roles: ['users'],
  createdAt: '2025-02-01T09:00:00.000Z',
  status: 'active',
  ...overrides,
});

/** Base64url strings shaped like a real WebAuthn payload (the schemas check the alphabet). */
export const authenticationResponse = () => ({
  id: 'Y3JlZGVudGlhbC1pZA',
  rawId: 'Y3JlZGVudGlhbC1pZA',
  response: {
    authenticatorData: 'YXV0aGVudGljYXRvci1kYXRh',
    clientDataJSON: 'Y2xpZW50LWRhdGEtanNvbg',
    signature: 'c2lnbmF0dXJl',
    userHandle: 'dXNlci1oYW5kbGU',
  },
  type: 'public-key' as const,
  clientExtensionResults: {},
  authenticatorAttachment: 'platform' as const,
});

export const registrationResponse = () => ({
  id: 'bmV3LWNyZWRlbnRpYWw',
  rawId: 'bmV3LWNyZWRlbnRpYWw',
  response: {
    clientDataJSON: 'Y2xpZW50LWRhdGEtanNvbg',
    attestationObject: 'YXR0ZXN0YXRpb24tb2JqZWN0',
    transports: ['internal'] as AuthenticatorTransport[],
  },
  type: 'public-key' as const,
  clientExtensionResults: {},
  authenticatorAttachment: 'platform' as const,
});

export const registrationOptions = () => ({
  challenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZQ',
  rp: { name: 'Metabolic Coaching', id: 'localhost' },
  user: { id: 'dXNlci1oYW5kbGU', name: 'casey@example.com', displayName: 'casey@example.com' },
  pubKeyCredParams: [{ type: 'public-key' as const, alg: -7 }],
  authenticatorSelection: {
    authenticatorAttachment: 'platform' as const,
    residentKey: 'required' as const,
    userVerification: 'required' as const,
  },
});

export const authenticationOptions = () => ({
  challenge: 'c2lnbmluLWNoYWxsZW5nZQ',
  rpId: 'localhost',
  allowCredentials: [],
  userVerification: 'required' as const,
});

export const PASSKEY_PROOF = 'proof-123';

/** What verify-webauthn and register-passkey answer: three distinct values, none standing in for another. */
export const passkeyProof = () => ({
  userId: USER_ID,
  cognitoUsername: COGNITO_USERNAME,
  passkeyProof: PASSKEY_PROOF,
});

let sequence = 0;
/** A fresh UUID-shaped id per call, so list keys and delete paths never collide. */
const nextId = () => {
  sequence += 1;
  return `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
};

/**
 * A stored measurement (value in the stored unit), as GET /v1/measurements answers it. Unit and
 * entered unit follow the type; glucose is fasting unless told otherwise.
 */
export const measurement = (overrides: Partial<Measurement> = {}): Measurement => {
  const type = overrides.type ?? 'glucose';
  const unit = MEASUREMENTS[type].storedUnit;
  return {
    measurementId: nextId(),
    userId: USER_ID,
    type,
    value: 98,
    unit,
    enteredUnit: unit,
    takenAt: '2025-03-01T07:30:00.000Z',
    ...(type === 'glucose' ? { context: 'fasting' as const } : {}),
    createdAt: '2025-03-01T07:31:00.000Z',
    ...overrides,
  };
};

type LogOf<Kind extends HealthLog['kind']> = Extract<HealthLog, { kind: Kind }>;
const logBase = () => ({ logId: nextId(), userId: USER_ID, createdAt: '2025-03-01T12:00:00.000Z' });

export const mealLog = (overrides: Partial<LogOf<'meal'>> = {}): LogOf<'meal'> => ({
  ...logBase(),
  kind: 'meal',
  description: 'Oatmeal with berries',
  carbsGrams: 45,
  eatenAt: '2025-03-01T08:00:00.000Z',
  ...overrides,
});

export const activityLog = (overrides: Partial<LogOf<'activity'>> = {}): LogOf<'activity'> => ({
  ...logBase(),
  kind: 'activity',
  activity: 'Walking',
  minutes: 30,
  intensity: 'moderate',
  startedAt: '2025-03-01T17:00:00.000Z',
  ...overrides,
});

export const sleepLog = (overrides: Partial<LogOf<'sleep'>> = {}): LogOf<'sleep'> => ({
  ...logBase(),
  kind: 'sleep',
  start: '2025-02-28T23:00:00.000Z',
  end: '2025-03-01T06:30:00.000Z',
  quality: 4,
  ...overrides,
});

/** A client as GET /v1/coach/clients lists it. */
export const coachClient = (overrides: Partial<CoachClient> = {}): CoachClient => ({
  userId: '3d4e5f60-7182-4394-a5b6-c7d8e9f0a1b2',
  email: 'alex@example.com',
  preferredName: 'Alex',
  familyName: 'Rivera',
  lastEntryAt: '2025-03-01T07:30:00.000Z',
  outOfTarget7d: 0,
  pendingReview: false,
  ...overrides,
});

/** A coach note as the notes routes answer it. */
export const coachNote = (overrides: Partial<CoachNote> = {}): CoachNote => ({
  noteId: nextId(),
  clientId: '3d4e5f60-7182-4394-a5b6-c7d8e9f0a1b2',
  coachId: USER_ID,
  coachName: 'Casey Jordan',
  text: 'Great week: keep the evening walks.',
  createdAt: '2025-03-02T09:00:00.000Z',
  ...overrides,
});

/** An audit event as the audit routes answer it. */
export const auditEvent = (overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  eventId: nextId(),
  at: '2025-03-02T09:00:00.000Z',
  type: 'signin.succeeded',
  actorId: USER_ID,
  subjectId: USER_ID,
  outcome: 'success',
  ip: '203.0.113.7',
  userAgent:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  details: {},
  ...overrides,
});

/** A passkey as GET /v1/users/me/passkeys lists it: synced, named after its provider, used once. */
export const passkeyItem = (overrides: Partial<Passkey> = {}): Passkey => ({
  credentialId: 'Y3JlZGVudGlhbC1pZA',
  name: 'iCloud Keychain',
  createdAt: '2025-01-02T10:00:00.000Z',
  lastUsedAt: '2025-03-02T08:00:00.000Z',
  backedUp: true,
  providerName: 'iCloud Keychain',
  ...overrides,
});
