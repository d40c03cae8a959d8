/**
 * `npm run invite -- --email someone@example.com --role admins`: creates an invitation and prints its
 * activation link. Without --stage it talks to the running local stack (`npm start`); with
 * `--stage dev` it talks to that deployed stage, using your AWS credentials.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import type { LocalStackFile } from '../infra/local/stack';
import { STACK_OUTPUTS } from '../infra/stacks/outputs';
import { stackNameFor } from '../infra/stacks/stage-config';
import { DEFAULT_REGION } from '../shared/constants';
import { sameRoles } from '../shared/roles';
import { TABLE_KEYS, TABLES, type TableKey } from '../shared/tables';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const usage =
  'Usage: npm run invite -- --email someone@example.com [--role admins|coaches|users]... [--stage dev [--region us-west-2]]';

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

/** Points the product's repositories at the running local stack; answers its origin. */
const useLocalStack = async (): Promise<string> => {
  const { lambdaEnvironment, stackFilePath } = await import('../infra/local/stack');
  const dataDir = resolve(import.meta.dirname, '..', process.env.LOCAL_DATA_DIR ?? '.local');
  const text = await readFile(stackFilePath(dataDir), 'utf8').catch(() =>
    fail('The local stack is not running: start it with `npm start` in another terminal, or pass --stage.'),
  );
  const stack = JSON.parse(text) as LocalStackFile;
  // The run's key pair signs the admin calls, as a Lambda's credentials do (decision 052). A stack
  // file without it was written by an older `npm start`.
  if (!(stack as Partial<LocalStackFile>).credentials)
    fail('The running local stack is out of date: restart `npm start`, then invite again.');
  Object.assign(process.env, lambdaEnvironment(stack));
  return stack.origin;
};

/**
 * The environment `invite` needs against a deployed stage, from its stack outputs: the pool, the region,
 * and every table by the variable the functions read it from (`TableNames`), as an invitation writes to
 * more than its own table (the counts live in accounts; a former user's profile is looked up).
 */
export const stageEnvironment = (
  outputs: ReadonlyMap<string | undefined, string | undefined>,
  stage: string,
  region: string,
): Record<string, string> => {
  const need = (key: keyof typeof STACK_OUTPUTS): string => {
    const value = outputs.get(STACK_OUTPUTS[key]);
    if (!value)
      throw new Error(`The stack of stage "${stage}" has no output ${STACK_OUTPUTS[key]}: deploy it first.`);
    return value;
  };
  const tables = JSON.parse(need('tableNames')) as Partial<Record<TableKey, string>>;
  return {
    AWS_REGION: region,
    USER_POOL_ID: need('userPoolId'),
    ...Object.fromEntries(
      TABLE_KEYS.map((key) => {
        const name = tables[key];
        if (!name) throw new Error(`The stack of stage "${stage}" names no ${key} table: deploy it again.`);
        return [TABLES[key].envVar, name];
      }),
    ),
  };
};

/** Points the repositories at a deployed stage, from its stack outputs; answers the app URL. */
const useStage = async (stage: string, region: string): Promise<string> => {
  const client = new CloudFormationClient({ region });
  const described = await client
    .send(new DescribeStacksCommand({ StackName: stackNameFor(stage) }))
    .catch((error: unknown) =>
      fail(
        `Could not read the stack of stage "${stage}": ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  const outputs = new Map((described.Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
  try {
    Object.assign(process.env, stageEnvironment(outputs, stage, region));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  return (
    outputs.get(STACK_OUTPUTS.appUrl) ??
    fail(`The stack of stage "${stage}" has no output ${STACK_OUTPUTS.appUrl}.`)
  );
};

const main = async () => {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      role: { type: 'string', multiple: true },
      stage: { type: 'string' },
      region: { type: 'string', default: DEFAULT_REGION },
    },
    strict: true,
  });
  const { normalizedEmailSchema, roleGroupSchema } = await import('../shared/schemas');
  const email = normalizedEmailSchema.safeParse(values.email ?? '');
  if (!email.success) fail(`${email.error.issues[0]?.message ?? 'Invalid email address'}\n${usage}`);
  const roles = (values.role ?? ['users']).map((role) => {
    const parsed = roleGroupSchema.safeParse(role);
    return parsed.success
      ? parsed.data
      : fail(`${parsed.error.issues[0]?.message ?? 'Invalid role'}\n${usage}`);
  });

  const origin = values.stage ? await useStage(values.stage, values.region) : await useLocalStack();
  const { invite } = await import('../lambdas/common/invite');
  const { HttpError } = await import('../lambdas/common/errors');
  const { activationLink, renewedIfExpired, SYSTEM_CREATOR } = await import('../infra/local/bootstrap');
  const { getInvitation, invitationExpired } = await import('../lambdas/common/repositories/invitations');
  const address = email.data ?? '';
  // An expired invitation blocks a new one and, before the first admin, nobody could resend it.
  const expired = await getInvitation(address);
  if (expired && !expired.codeUsed && invitationExpired(expired)) {
    if (!sameRoles(expired.roles, roles))
      fail(
        `The expired invitation for ${address} is for ${expired.roles.join(', ')}: ask for those roles to renew it, or delete it in User Management and invite again.`,
      );
    const renewed =
      (await renewedIfExpired(expired)) ?? fail('The invitation was used or deleted meanwhile.');
    console.log(
      `Invitation renewed for ${renewed.email} (${renewed.roles.join(', ')}): its old code no longer works`,
    );
    console.log(`Activation link: ${activationLink(origin, renewed.activationCode)}`);
    return;
  }
  const invitation = await invite({ email: address, roles, createdBy: SYSTEM_CREATOR }).catch(
    (error: unknown) =>
      fail(error instanceof HttpError ? error.message : `Could not create the invitation: ${String(error)}`),
  );
  console.log(`Invitation created for ${invitation.email} (${invitation.roles.join(', ')})`);
  console.log(`Activation link: ${activationLink(origin, invitation.activationCode)}`);
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
