/**
 * Errors exactly as Amazon Cognito names them on the wire. Clients (the AWS SDK, Amplify) branch on
 * `__type` and sometimes on the message, so both are part of the contract and live here in one place.
 */
export class CognitoError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly statusCode = 400,
  ) {
    super(message);
    this.name = type;
  }
}

const make =
  (type: string) =>
  (message: string): CognitoError =>
    new CognitoError(type, message);

export const notAuthorized = make('NotAuthorizedException');
export const invalidParameter = make('InvalidParameterException');
export const resourceNotFound = make('ResourceNotFoundException');
export const usernameExists = make('UsernameExistsException');
export const aliasExists = make('AliasExistsException');
export const userLambdaValidation = make('UserLambdaValidationException');
export const invalidLambdaResponse = make('InvalidLambdaResponseException');
export const unexpectedLambda = make('UnexpectedLambdaException');
export const unsupportedTokenType = make('UnsupportedTokenTypeException');
export const serialization = make('SerializationException');
export const unknownOperation = make('UnknownOperationException');
export const refreshTokenReuse = make('RefreshTokenReuseException');
export const invalidSignature = make('InvalidSignatureException');
export const incompleteSignature = make('IncompleteSignatureException');

/** The one message Cognito gives for every failed sign-in, so callers cannot probe for users. */
export const INCORRECT_CREDENTIALS = 'Incorrect username or password.';

/** A signed action called with no Authorization header: 403, as in AWS's common errors. */
export const missingAuthenticationToken = (): CognitoError =>
  new CognitoError('MissingAuthenticationTokenException', 'Missing Authentication Token', 403);

/** An access key id the endpoint does not know (AWS's answer to a wrong or revoked key). */
export const unrecognizedClient = (): CognitoError =>
  new CognitoError('UnrecognizedClientException', 'The security token included in the request is invalid.');

export const userNotFound = (): CognitoError =>
  new CognitoError('UserNotFoundException', 'User does not exist.');

export const userDisabled = (): CognitoError => notAuthorized('User is disabled.');

export const requestTooLarge = (): CognitoError =>
  new CognitoError('RequestEntityTooLargeException', 'Request body is too large.', 413);

export const internalError = (message = 'Internal server error.'): CognitoError =>
  new CognitoError('InternalErrorException', message, 500);
