// The CDK app: one stack per stage, chosen with `-c stage=<name>` (see README, "Deploying to AWS").
import { App } from 'aws-cdk-lib';
import { definePlatform } from '../infra/stacks/platform-app';
import { StageConfigError } from '../infra/stacks/stage-config';

const app = new App();
try {
  definePlatform(app);
} catch (error) {
  if (!(error instanceof StageConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
