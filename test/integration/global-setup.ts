/**
 * One DynamoDB Local for the whole integration run (it takes about 1.5 s to start); each test file
 * creates its own tables under a unique prefix, so files never see each other's data.
 */
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoDbEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dynamo = await startDynamoDbLocal();
  project.provide('dynamoDbEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}
