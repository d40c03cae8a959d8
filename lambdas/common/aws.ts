/**
 * The AWS clients, created once per Lambda container. Endpoints come from the SDK's standard
 * variables (AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER), which is how
 * the local stack points them at DynamoDB Local and the local Cognito endpoint: no product code knows.
 */
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

export const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true },
});

// Marked pure so that esbuild leaves the Cognito client (about 30 KB and a few ms to load) out of every
// function that never uses it; a function that does still creates it at start (055-cold-starts.md).
export const cognito = /* @__PURE__ */ new CognitoIdentityProviderClient({});

/** One item of a DynamoDB transaction; repositories build them, a handler commits them together. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
