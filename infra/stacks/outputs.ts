/**
 * Names of the stack outputs. The deploy script reads them to build the SPA, so both sides use
 * these constants (this module imports nothing, so scripts load it without the CDK).
 */
export const STACK_OUTPUTS = {
  appUrl: 'AppUrl',
  apiUrl: 'ApiUrl',
  userPoolId: 'UserPoolId',
  userPoolClientId: 'UserPoolClientId',
  region: 'Region',
  siteBucketName: 'SiteBucketName',
  distributionId: 'DistributionId',
  alarmTopicArn: 'AlarmTopicArn',
  tableNames: 'TableNames',
} as const;

export type StackOutputKey = keyof typeof STACK_OUTPUTS;
