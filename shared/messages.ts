/** Every user-visible text of SPEC sections 2, 4, 5 and 8, letter for letter. */

export const VALIDATION = {
  invalidEmail: 'Invalid email address',
  userIdUuid: 'User ID must be a valid UUID',
  nameRequired: 'Name is required',
  nameTooLong: 'Name too long',
  invalidDatetime: 'Invalid datetime',
  createdByUuid: 'Created by must be a valid UUID',
  registrationCode: 'Activation code must be 16 alphanumeric characters (with or without dashes)',
  storedCode: 'Activation code must be exactly 16 uppercase alphanumeric characters',
  preferredNameRequired: 'Preferred name is required',
  familyNameRequired: 'Family name is required',
  dateOfBirthRequired: 'Date of birth is required',
  invalidDateOfBirth: 'Please enter a valid date of birth',
  /** Not worded by SPEC (docs/decisions/025-screen-details.md). */
  invalidTimezone: 'Time zone must be a time zone name such as Europe/Berlin',
  invalidLocale: 'Language must be a language tag such as en-US',
  heightRequired: 'Height is required',
  heightRange: 'Height must be between 50 and 300 cm',
  invalidHeight: 'Please enter a valid height',
  // Not worded by SPEC; phrased like its neighbours (docs/decisions/002-server-limits.md).
  preferredNameTooLong: 'Preferred name too long',
  familyNameTooLong: 'Family name too long',
  invalidDate: 'Invalid date',
  invalidRole: 'Role must be one of admins, coaches, users',
} as const;

export const MESSAGES = {
  loading: 'Loading...',
  signInWithPasskey: 'Sign In with Passkey',
  authenticating: 'Authenticating...',
  signInFailed: 'Failed to sign in with passkey. Please try again.',
  passkeySignInFailed: 'Failed to sign in with passkey',
  verifying: 'Verifying...',
  setUpYourPasskey: 'Set Up Your Passkey',
  createPasskey: 'Create Passkey',
  invalidActivationCode: 'Invalid activation code. Please check your code and try again.',
  verificationDataNotFound: 'Verification data not found. Please start over.',
  accessDenied: 'Access Denied',
  webAuthnUnsupported:
    'WebAuthn is not supported in this browser. Please use a modern browser like Chrome, Safari, or Edge.',
  noPlatformAuthenticator:
    'No biometric authenticator available on this device. Please use a device with Face ID, Touch ID, or Windows Hello.',
  noCredentialCreated: 'Failed to create passkey credential',
  noIdToken: 'No ID token available. Please sign in.',
  onboardingSaveFailed: 'Failed to save profile. Please try again.',
  profileLoadFailed: 'Failed to Load Profile',
  profileLoadFallback: 'An error occurred while loading your profile',
  profileSaveFailed: 'Failed to update profile. Please try again.',
  saving: 'Saving...',
  deleteInvitationFallback: 'Failed to delete invitation',
  createInvitationFallback: 'Failed to create invitation',
  creating: 'Creating...',
  codeCopied: 'Activation code copied to clipboard!',
  linkCopied: 'Activation link copied to clipboard!',
  noUsers: 'No users yet. Start by inviting your first user.',
  noPendingInvitations: 'No pending invitations.',
  noActivatedUsers: 'No activated users yet.',
  noClients: 'No clients assigned yet.',
  noSessions: 'No upcoming sessions scheduled.',
  authNotCompleted: 'Authentication was not completed',
  userNotAuthenticated: 'User needs to be authenticated to call this API.',
  networkError: 'A network error has occurred.',
} as const;

export const confirmDeleteInvitation = (email: string): string =>
  `Are you sure you want to delete the invitation for ${email}?`;

export const welcomeTitle = (name: string): string => `Welcome back, ${name}!`;

/** A query parameter sent twice (`?type=glucose&type=weight`): not SPEC's (docs/decisions/002). */
export const repeatedQueryParameter = (name: string): string => `'${name}' may be given once`;

export const apiErrorFallback = (status: number, statusText: string): string =>
  `API error: ${status} ${statusText}`;

/**
 * What API Gateway itself answers (and the local gateway with it): a path or method it has no route
 * for (403), and a Cognito-authorized route with an id token past its `exp` (401; any other refused
 * token is 401 'Unauthorized').
 */
export const GATEWAY_MESSAGES = {
  noRoute: 'Missing Authentication Token',
  tokenExpired: 'The incoming token has expired',
} as const;

/** Server answers (not worded by SPEC; see docs/decisions/002-server-limits.md). */
export const API_MESSAGES = {
  invalidJson: 'Request body must be valid JSON',
  unsupportedMediaType: 'Content-Type must be application/json',
  payloadTooLarge: 'Request body must be at most 32 KB',
  /** Not worded by the SPEC (docs/decisions/061-idempotent-creates.md). */
  invalidIdempotencyKey: 'Idempotency-Key must be a UUID',
  idempotencyKeyReused: 'This Idempotency-Key was used for another kind of entry',
  idempotencyKeyMismatch: 'This Idempotency-Key was already used with a different request',
  invalidRequest: 'Invalid request',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  internal: 'Internal server error',
  registrationFailed: 'Passkey registration could not be verified. Please start over.',
  activationCodeUsed: 'This activation code has already been used.',
  signInFailed: 'Passkey sign-in could not be verified. Please try again.',
  sessionExpired: 'Sign-in session expired or already used. Please try again.',
  profileNotFound: 'Profile not found. Please complete activation first.',
  emailChange: 'Email cannot be changed',
  invitationExists: 'An invitation for this email is already pending',
  accountExists: 'An account with this email already exists',
  invitationNotFound: 'Invitation not found',
  invitationActivated: 'Only pending invitations can be deleted',
} as const;
