import { readFileSync } from 'node:fs';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { definePlatform } from '../../../infra/stacks/platform-app';
import type { PlatformStack } from '../../../infra/stacks/platform-stack';
import { TABLE_KEYS } from '../../../shared/tables';

/** The context `cdk synth` gets from cdk.json (feature flags), so tests see the template the CLI makes. */
const CDK_JSON_CONTEXT = (
  JSON.parse(readFileSync(new URL('../../../cdk.json', import.meta.url), 'utf8')) as {
    context: Record<string, unknown>;
  }
).context;

export interface Synthesized {
  readonly stack: PlatformStack;
  readonly template: Template;
}

/**
 * Builds the stage's stack exactly as `bin/app.ts` does, with esbuild bundling skipped
 * (`aws:cdk:bundling-stacks: []`) so a synth takes seconds. Context values override cdk.json.
 */
export function synthPlatform(context: Record<string, unknown>): Synthesized {
  const app = new App({
    context: { ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [], ...context },
  });
  const stack = definePlatform(app);
  return { stack, template: Template.fromStack(stack) };
}

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export interface CfnResource {
  readonly Type: string;
  readonly Properties: Record<string, Json>;
  readonly DeletionPolicy?: string;
  readonly UpdateReplacePolicy?: string;
  readonly Metadata?: Record<string, Json>;
}

export const resourcesOf = (template: Template, type: string): Record<string, CfnResource> =>
  template.findResources(type) as Record<string, CfnResource>;

/** The logical id a construct (or its default child) has in the template. */
export const logicalIdOf = (stack: PlatformStack, construct: IConstruct): string =>
  stack.getLogicalId((construct.node.defaultChild ?? construct) as CfnElement);

/**
 * Renders an intrinsic as readable text: `{Ref: X}` is `${X}`, `{Fn::GetAtt: [X, A]}` is `${X.A}`,
 * and `Fn::Join` joins its parts, so assertions can compare whole strings.
 */
export function flatten(value: Json | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.map(flatten).join(',');
  if ('Ref' in value) return `\${${flatten(value.Ref)}}`;
  const getAtt = value['Fn::GetAtt'];
  if (Array.isArray(getAtt)) return `\${${getAtt.map(flatten).join('.')}}`;
  const join = value['Fn::Join'];
  if (Array.isArray(join)) {
    const [separator, parts] = join;
    return (Array.isArray(parts) ? parts : []).map(flatten).join(flatten(separator));
  }
  return JSON.stringify(value);
}

/** The full path of every API Gateway resource, by logical id, rebuilt from PathPart and ParentId. */
export function apiResourcePaths(template: Template): Map<string, string> {
  const resources = resourcesOf(template, 'AWS::ApiGateway::Resource');
  const paths = new Map<string, string>();
  const pathOf = (logicalId: string): string => {
    const known = paths.get(logicalId);
    if (known !== undefined) return known;
    const resource = resources[logicalId];
    if (!resource) return ''; // the API's root resource
    const parent = resource.Properties.ParentId as { Ref?: string };
    const path = `${parent.Ref ? pathOf(parent.Ref) : ''}/${flatten(resource.Properties.PathPart)}`;
    paths.set(logicalId, path);
    return path;
  };
  for (const logicalId of Object.keys(resources)) pathOf(logicalId);
  return paths;
}

/** The API Gateway method for `httpMethod` on `path`, or undefined. */
export function findMethod(template: Template, httpMethod: string, path: string): CfnResource | undefined {
  const paths = apiResourcePaths(template);
  return Object.values(resourcesOf(template, 'AWS::ApiGateway::Method')).find((method) => {
    const resourceId = method.Properties.ResourceId as { Ref?: string };
    return method.Properties.HttpMethod === httpMethod && paths.get(resourceId.Ref ?? '') === path;
  });
}

export interface Statement {
  readonly Effect: 'Allow' | 'Deny';
  readonly Action: string | string[];
  readonly Resource?: Json;
  readonly Principal?: Json;
  readonly Condition?: Json;
}

export const actionsOf = (statement: Statement): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

export const resourcesOfStatement = (statement: Statement): Json[] =>
  Array.isArray(statement.Resource)
    ? statement.Resource
    : statement.Resource === undefined
      ? []
      : [statement.Resource];

/** Every statement of the identity policies attached to a role. */
export function statementsOfRole(template: Template, roleLogicalId: string): Statement[] {
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((policy) =>
      (policy.Properties.Roles as { Ref?: string }[]).some((role) => role.Ref === roleLogicalId),
    )
    .flatMap(
      (policy) => (policy.Properties.PolicyDocument as unknown as { Statement: Statement[] }).Statement,
    );
}

/** An IAM string pattern (`*` any run of characters, `?` one character) as an anchored regular expression. */
const globCharacter = (c: string): string =>
  c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^$|()[\]{}\\]/g, '\\$&');
const globPattern = (pattern: string): RegExp =>
  new RegExp(`^${pattern.split('').map(globCharacter).join('')}$`, 's');
export const globMatches = (pattern: string, value: string): boolean => globPattern(pattern).test(value);

/**
 * What a call asks IAM for: the action, the resource (flattened, see `flatten`), its DynamoDB leading
 * keys, and for a KMS call the service making it on the caller's behalf (`kms:ViaService`; none when
 * the caller uses the key directly).
 */
export interface Request {
  readonly action: string;
  readonly resource: string;
  readonly leadingKeys?: readonly string[];
  readonly viaService?: string;
}

/**
 * The service a statement's actions are limited to (`kms:ViaService`, the condition the stack puts on
 * every KMS statement), or undefined without that condition.
 */
export function viaServiceOf(statement: Statement): string | undefined {
  const condition = statement.Condition as Record<string, Record<string, Json>> | undefined;
  const equals = condition?.['StringEquals'];
  if (!condition || Object.keys(condition).join() !== 'StringEquals' || !equals) return undefined;
  if (Object.keys(equals).join() !== 'kms:ViaService') return undefined;
  return flatten(equals['kms:ViaService']);
}

/** DynamoDB in some Region, as `kms:ViaService` names it. */
export const DYNAMODB_SERVICE = /^dynamodb\.[a-z0-9-]+\.amazonaws\.com$/;

/**
 * The leading-key patterns of a statement, or undefined without a condition. The only condition
 * supported is the one the stack writes: those patterns for every leading key, and a leading key
 * required (`Null` false: ForAllValues alone holds for a request without one).
 */
export function leadingKeyPatterns(statement: Statement): string[] | undefined {
  if (statement.Condition === undefined || viaServiceOf(statement) !== undefined) return undefined;
  const condition = statement.Condition as Record<string, Record<string, Json>>;
  const operators = Object.keys(condition).sort();
  const keys = condition['ForAllValues:StringLike'];
  const required = condition['Null'];
  if (
    operators.join() !== 'ForAllValues:StringLike,Null' ||
    !keys ||
    Object.keys(keys).join() !== 'dynamodb:LeadingKeys' ||
    JSON.stringify(required) !== JSON.stringify({ 'dynamodb:LeadingKeys': 'false' })
  ) {
    throw new Error(`Unsupported condition in a role statement: ${JSON.stringify(statement.Condition)}`);
  }
  const patterns = keys['dynamodb:LeadingKeys'];
  return (Array.isArray(patterns) ? patterns : [patterns]).map(String);
}

const statementMatches = (statement: Statement, request: Request): boolean => {
  if (!actionsOf(statement).some((action) => globMatches(action, request.action))) return false;
  if (!resourcesOfStatement(statement).some((resource) => globMatches(flatten(resource), request.resource)))
    return false;
  const via = viaServiceOf(statement);
  if (via !== undefined && request.viaService !== via) return false;
  const patterns = leadingKeyPatterns(statement);
  // Every leading key of the request must match one pattern, and there must be one (the Null check).
  return (
    patterns === undefined ||
    ((request.leadingKeys ?? []).length > 0 &&
      (request.leadingKeys ?? []).every((key) => patterns.some((pattern) => globMatches(pattern, key))))
  );
};

/**
 * Evaluates a request against identity-policy statements the way IAM does for the shapes this stack
 * writes: an explicit Deny wins, otherwise one matching Allow is needed. Any other condition throws.
 */
export const isAllowed = (statements: readonly Statement[], request: Request): boolean =>
  !statements.some((s) => s.Effect === 'Deny' && statementMatches(s, request)) &&
  statements.some((s) => s.Effect === 'Allow' && statementMatches(s, request));

/** Every statement of the identity policies of the role of the function `id` (a route or a trigger). */
export const functionStatements = ({ stack, template }: Synthesized, id: string): Statement[] => {
  const fn = stack.functions[id];
  if (!fn) throw new Error(`No function ${id}`);
  return statementsOfRole(template, logicalIdOf(stack, fn.role));
};

/**
 * A function role's DynamoDB and KMS permissions as sorted lines `<action> <resource>[ <key patterns>]`,
 * tables named by their key (`healthRecords/index/byOwner` for an index) and customer-managed keys as
 * `<table key> key`. A Deny, a statement on anything else, or a KMS statement not limited to use
 * through DynamoDB, throws.
 */
export function dataPermissions(synth: Synthesized, id: string): string[] {
  const { stack } = synth;
  const tables = new Map(TABLE_KEYS.map((key) => [logicalIdOf(stack, stack.tables.table(key)), key]));
  const keys = new Map(
    TABLE_KEYS.flatMap((key) => {
      const encryptionKey = stack.tables.encryptionKey(key);
      return encryptionKey ? [[logicalIdOf(stack, encryptionKey), key] as const] : [];
    }),
  );
  const nameOf = (resource: string): string | undefined => {
    const match = /^\$\{([A-Za-z0-9]+)\.Arn\}(\/index\/[A-Za-z0-9_.-]+)?$/.exec(resource);
    if (!match?.[1]) return undefined;
    const table = tables.get(match[1]);
    if (table) return `${table}${match[2] ?? ''}`;
    const keyOf = keys.get(match[1]);
    return keyOf && !match[2] ? `${keyOf} key` : undefined;
  };
  return functionStatements(synth, id)
    .filter((statement) => actionsOf(statement).some((action) => /^(dynamodb|kms):/.test(action)))
    .flatMap((statement) => {
      if (statement.Effect !== 'Allow') throw new Error(`${id}: a ${statement.Effect} statement`);
      // A key is used through DynamoDB only, never directly (decrypting or encrypting anything itself).
      if (
        actionsOf(statement).some((action) => action.startsWith('kms:')) &&
        !DYNAMODB_SERVICE.test(viaServiceOf(statement) ?? '')
      )
        throw new Error(`${id}: a KMS statement not limited to DynamoDB (kms:ViaService)`);
      const patterns = leadingKeyPatterns(statement);
      return actionsOf(statement).flatMap((action) =>
        resourcesOfStatement(statement).map((resource) => {
          const name = nameOf(flatten(resource));
          if (!name) throw new Error(`${id}: ${action} on something else: ${flatten(resource)}`);
          return [action, name, ...(patterns ? [[...patterns].sort().join(' | ')] : [])].join(' ');
        }),
      );
    })
    .sort();
}

/** `<action> <resource>` for each action, as `dataPermissions` writes them. */
export const permissionLines = (actions: readonly string[], resource: string): string[] =>
  actions.map((action) => `${action} ${resource}`);

/**
 * What a role needs on a table's customer-managed key, written out here rather than imported from the
 * construct, so a change there shows up as a failed test: reading, and writing on top.
 */
export const KEY_READ = ['kms:Decrypt', 'kms:DescribeKey'];
export const KEY_WRITE = [
  ...KEY_READ,
  'kms:Encrypt',
  'kms:GenerateDataKey',
  'kms:GenerateDataKeyWithoutPlaintext',
  'kms:ReEncryptFrom',
  'kms:ReEncryptTo',
];
