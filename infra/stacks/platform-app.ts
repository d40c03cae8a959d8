import { Aspects, Tags, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PlatformStack } from './platform-stack';
import { stackNameFor, stageConfigFromContext } from './stage-config';

/**
 * Adds the stage's stack to the app, as `bin/app.ts` and the template tests both do: the stage and options
 * come from context, and cdk-nag's AWS Solutions checks run on every synth, so an unsuppressed finding
 * fails `cdk synth` as well as the tests.
 */
export function definePlatform(app: App): PlatformStack {
  const config = stageConfigFromContext(app.node);
  const stack = new PlatformStack(app, stackNameFor(config.stage), {
    config,
    env: { region: config.region },
    description: `Metabolic health coaching platform, stage ${config.stage}`,
    terminationProtection: config.retain,
  });
  Tags.of(stack).add('project', 'metabolic-coaching');
  Tags.of(stack).add('stage', config.stage);
  Aspects.of(app).add(new AwsSolutionsChecks());
  return stack;
}
