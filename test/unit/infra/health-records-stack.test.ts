/**
 * Health records in the stack (SPEC-2 section 1): the table and the customer-managed KMS key of its own,
 * what each health function may do on them, and the key page cursors are signed with.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_FUNCTIONS } from '../../../lambdas/routes';
import { TABLE_KEYS, TABLES, type TableDefinition, type TableKey } from '../../../shared/tables';
import { ERASE_FUNCTIONS, ERASE_PERMISSIONS, FINISH_ERASES_PERMISSIONS } from './erase-permissions';
import {
  actionsOf,
  dataPermissions,
  flatten,
  functionStatements,
  isAllowed,
  KEY_READ,
  KEY_WRITE,
  logicalIdOf,
  permissionLines as lines,
  resourcesOf,
  resourcesOfStatement,
  synthPlatform,
  type CfnResource,
  type Json,
  type Statement,
  type Synthesized,
} from './platform-template';

let prod: Synthesized;
let dev: Synthesized;

beforeAll(() => {
  prod = synthPlatform({ stage: 'prod' });
  dev = synthPlatform({ stage: 'dev' });
});

const healthTableId = ({ stack }: Synthesized) => logicalIdOf(stack, stack.tables.table('healthRecords'));
const healthKeyId = ({ stack }: Synthesized) => {
  const key = stack.tables.encryptionKey('healthRecords');
  if (!key) throw new Error('The health records table has no key of its own.');
  return logicalIdOf(stack, key);
};
const healthTable = (synth: Synthesized): CfnResource =>
  resourcesOf(synth.template, 'AWS::DynamoDB::Table')[healthTableId(synth)]!;
const healthKey = (synth: Synthesized): CfnResource =>
  resourcesOf(synth.template, 'AWS::KMS::Key')[healthKeyId(synth)]!;
const secretId = ({ stack }: Synthesized) => logicalIdOf(stack, stack.cursorSigningKey);
const roleStatements = functionStatements;
const environmentOf = ({ stack, template }: Synthesized, id: string): Record<string, Json> => {
  const resource = resourcesOf(template, 'AWS::Lambda::Function')[
    logicalIdOf(stack, stack.functions[id]!.function)
  ]!;
  return (resource.Properties.Environment as { Variables: Record<string, Json> }).Variables;
};

describe('health records table', () => {
  it('is keyed by pk and sk, with the byOwner index on owner and sk holding every attribute', () => {
    const props = healthTable(prod).Properties;
    expect(props.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(props.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: 'byOwner',
        KeySchema: [
          { AttributeName: 'owner', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ]);
    expect(props.AttributeDefinitions).toEqual(
      expect.arrayContaining([
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
        { AttributeName: 'owner', AttributeType: 'S' },
      ]),
    );
  });

  it('is on demand, with point-in-time recovery', () => {
    const props = healthTable(prod).Properties;
    expect(props.BillingMode).toBe('PAY_PER_REQUEST');
    expect(props.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
  });

  it('is encrypted with a KMS key of its own, not the AWS-managed key', () => {
    for (const synth of [prod, dev]) {
      expect(healthTable(synth).Properties.SSESpecification).toEqual({
        SSEEnabled: true,
        SSEType: 'KMS',
        KMSMasterKeyId: { 'Fn::GetAtt': [healthKeyId(synth), 'Arn'] },
      });
    }
  });

  it('has a customer-managed key of its own: one per table whose definition asks for it, and no other', () => {
    const wanted = TABLE_KEYS.filter((key) => (TABLES[key] as TableDefinition).customerManagedKey);
    // Profiles (date of birth, sex at birth, height, targets), health records, and coaching (derived
    // from them: summaries and notes) are the health data.
    expect(wanted).toEqual(['profiles', 'healthRecords', 'coaching']);
    for (const synth of [prod, dev]) {
      const keyIds = wanted.map((key) => logicalIdOf(synth.stack, synth.stack.tables.encryptionKey(key)!));
      expect(new Set(keyIds).size).toBe(wanted.length);
      expect(Object.keys(resourcesOf(synth.template, 'AWS::KMS::Key')).sort()).toEqual(keyIds.sort());
      expect(keyIds).toContain(healthKeyId(synth));
      for (const key of TABLE_KEYS.filter((candidate) => !wanted.includes(candidate))) {
        expect(synth.stack.tables.encryptionKey(key), key).toBeUndefined();
      }
    }
  });

  it('has a symmetric key with automatic rotation and a description', () => {
    const props = healthKey(prod).Properties;
    expect(props.EnableKeyRotation).toBe(true);
    expect(props.KeySpec ?? 'SYMMETRIC_DEFAULT').toBe('SYMMETRIC_DEFAULT');
    expect(props.KeyUsage ?? 'ENCRYPT_DECRYPT').toBe('ENCRYPT_DECRYPT');
    expect(props.Description).toMatch(/health-records/);
  });

  it('keeps the table and its key outside dev, with deletion protection on the table', () => {
    expect(healthTable(prod).DeletionPolicy).toBe('Retain');
    expect(healthTable(prod).UpdateReplacePolicy).toBe('Retain');
    expect(healthTable(prod).Properties.DeletionProtectionEnabled).toBe(true);
    // Without its key, the retained table and its backups could not be read.
    expect(healthKey(prod).DeletionPolicy).toBe('Retain');
    expect(healthKey(prod).UpdateReplacePolicy).toBe('Retain');
  });

  it('deletes the table and schedules its key for deletion with a dev stack', () => {
    expect(healthTable(dev).DeletionPolicy).toBe('Delete');
    expect(healthTable(dev).Properties.DeletionProtectionEnabled).toBe(false);
    expect(healthKey(dev).DeletionPolicy).toBe('Delete');
  });

  it("leaves the key policy as AWS's default: the account's IAM policies decide who may use the key", () => {
    // The one statement lets IAM policies of this account grant use of the key (without it no IAM grant
    // would work); the only IAM grants on the key are the health functions' (tested below).
    const policy = healthKey(prod).Properties.KeyPolicy as unknown as { Statement: Statement[] };
    expect(policy.Statement).toHaveLength(1);
    const [statement] = policy.Statement;
    expect(statement!.Effect).toBe('Allow');
    expect(flatten((statement!.Principal as { AWS: Json }).AWS)).toBe('arn:aws:iam::${AWS::AccountId}:root');
    expect(statement!.Action).toBe('kms:*');
    expect(statement!.Condition).toBeUndefined();
  });
});

describe('health functions', () => {
  /** The read of the caller's account every authenticated route makes (lambdas/common/session.ts). */
  const SESSION_CHECK = 'dynamodb:GetItem accounts';
  /** Reviewed by hand against each handler (the handler-permissions test checks them by running it). */
  const REVIEWED: Record<string, string[]> = {
    // The health writes also keep the client's coaching summary (its own transaction item), and commit
    // only while the account is active (an erase begun since the session check cancels them).
    CreateMeasurement: [
      SESSION_CHECK,
      'dynamodb:ConditionCheckItem accounts',
      'dynamodb:PutItem healthRecords',
      // Sent again with its Idempotency-Key: the record the first one stored (decision 061).
      'dynamodb:GetItem healthRecords',
      ...lines(KEY_WRITE, 'healthRecords key'),
      'dynamodb:UpdateItem coaching client#*',
      ...lines(KEY_WRITE, 'coaching key'),
    ],
    ListMeasurements: [
      SESSION_CHECK,
      'dynamodb:Query healthRecords',
      'dynamodb:Query healthRecords/index/byOwner',
      ...lines(KEY_READ, 'healthRecords key'),
    ],
    // A reading outside target leaves its day's counter of the summary.
    DeleteMeasurement: [
      SESSION_CHECK,
      'dynamodb:ConditionCheckItem accounts',
      'dynamodb:DeleteItem healthRecords',
      // The reference only (`{userId}#R`): the route cannot read a reading by its key.
      'dynamodb:GetItem healthRecords *#R',
      ...lines(KEY_WRITE, 'healthRecords key'),
      'dynamodb:UpdateItem coaching client#*',
      ...lines(KEY_WRITE, 'coaching key'),
    ],
    CreateLog: [
      SESSION_CHECK,
      'dynamodb:ConditionCheckItem accounts',
      'dynamodb:PutItem healthRecords',
      // Sent again with its Idempotency-Key: the record the first one stored (decision 061).
      'dynamodb:GetItem healthRecords',
      ...lines(KEY_WRITE, 'healthRecords key'),
      'dynamodb:UpdateItem coaching client#*',
      ...lines(KEY_WRITE, 'coaching key'),
    ],
    ListLogs: [
      SESSION_CHECK,
      'dynamodb:Query healthRecords',
      'dynamodb:Query healthRecords/index/byOwner',
      ...lines(KEY_READ, 'healthRecords key'),
    ],
    DeleteLog: [
      SESSION_CHECK,
      'dynamodb:ConditionCheckItem accounts',
      'dynamodb:DeleteItem healthRecords',
      // The reference only (`{userId}#R`): the route cannot read a reading by its key.
      'dynamodb:GetItem healthRecords *#R',
      ...lines(KEY_WRITE, 'healthRecords key'),
    ],
    // The JSON export also holds the account, its passkeys and the coach (named from their profile).
    ExportMe: [
      SESSION_CHECK,
      'dynamodb:ConditionCheckItem accounts',
      'dynamodb:GetItem profiles',
      'dynamodb:BatchGetItem profiles',
      ...lines(KEY_READ, 'profiles key'),
      'dynamodb:Query healthRecords/index/byOwner',
      ...lines(KEY_READ, 'healthRecords key'),
      'dynamodb:GetItem coaching client#*',
      'dynamodb:Query coaching notes#*',
      ...lines(KEY_READ, 'coaching key'),
      'dynamodb:BatchGetItem passkeys',
      'dynamodb:PutItem auditEvents',
    ],
    // A coach reads a client's records as the client does, once the client's state names the coach,
    // and only after the read is in the audit log (coaching-audit-stack.test.ts).
    ListClientMeasurements: [
      SESSION_CHECK,
      'dynamodb:ConditionCheckItem accounts',
      'dynamodb:Query healthRecords',
      'dynamodb:Query healthRecords/index/byOwner',
      ...lines(KEY_READ, 'healthRecords key'),
      'dynamodb:ConditionCheckItem coaching client#*',
      'dynamodb:GetItem coaching client#*',
      ...lines(KEY_READ, 'coaching key'),
      'dynamodb:PutItem auditEvents',
    ],
    ListClientLogs: [
      SESSION_CHECK,
      'dynamodb:ConditionCheckItem accounts',
      'dynamodb:Query healthRecords',
      'dynamodb:Query healthRecords/index/byOwner',
      ...lines(KEY_READ, 'healthRecords key'),
      'dynamodb:ConditionCheckItem coaching client#*',
      'dynamodb:GetItem coaching client#*',
      ...lines(KEY_READ, 'coaching key'),
      'dynamodb:PutItem auditEvents',
    ],
    // Erasing a person deletes every record of theirs (erase-permissions.ts).
    ...Object.fromEntries(ERASE_FUNCTIONS.map((id) => [id, [...ERASE_PERMISSIONS]])),
    FinishErases: [...FINISH_ERASES_PERMISSIONS],
  };
  const HEALTH_FUNCTIONS = Object.keys(REVIEWED);

  it('are exactly the functions the manifest binds to the health records table', () => {
    expect(ALL_FUNCTIONS.filter((fn) => fn.tables.healthRecords).map((fn) => fn.id)).toEqual(
      HEALTH_FUNCTIONS,
    );
  });

  it.each(HEALTH_FUNCTIONS)(
    '%s may take exactly the reviewed DynamoDB and KMS actions, on those resources only',
    (id) => {
      for (const synth of [prod, dev]) expect(dataPermissions(synth, id)).toEqual([...REVIEWED[id]!].sort());
    },
  );

  it('lets no function scan the health records table or its index', () => {
    const table = `\${${healthTableId(prod)}.Arn}`;
    for (const definition of ALL_FUNCTIONS) {
      for (const resource of [table, `${table}/index/byOwner`]) {
        expect(
          isAllowed(roleStatements(prod, definition.id), { action: 'dynamodb:Scan', resource }),
          definition.id,
        ).toBe(false);
      }
    }
  });

  it('grants KMS actions only on the keys of the tables a function is bound to, through DynamoDB only: the health key only to health functions', () => {
    const keyArn = (key: TableKey) =>
      flatten({ 'Fn::GetAtt': [logicalIdOf(prod.stack, prod.stack.tables.encryptionKey(key)!), 'Arn'] });
    const withHealthKey: string[] = [];
    for (const definition of ALL_FUNCTIONS) {
      const kms = roleStatements(prod, definition.id).filter((statement) =>
        actionsOf(statement).some((action) => action.startsWith('kms:')),
      );
      for (const statement of kms) {
        expect(
          actionsOf(statement).every((action) => action.startsWith('kms:')),
          definition.id,
        ).toBe(true);
        // Only through DynamoDB, in the stack's Region: never the key used directly.
        expect(flatten(statement.Condition), definition.id).toBe(
          flatten({ StringEquals: { 'kms:ViaService': `dynamodb.${prod.stack.region}.amazonaws.com` } }),
        );
      }
      const keys = [...new Set(kms.flatMap(resourcesOfStatement).map(flatten))].sort();
      const ownKeys = (Object.keys(definition.tables) as TableKey[])
        .filter((key) => (TABLES[key] as TableDefinition).customerManagedKey)
        .map(keyArn)
        .sort();
      expect(keys, definition.id).toEqual(ownKeys);
      if (keys.includes(keyArn('healthRecords'))) withHealthKey.push(definition.id);
    }
    expect(withHealthKey).toEqual(HEALTH_FUNCTIONS);
  });

  it('lets a function that only reads health records neither encrypt nor make data keys', () => {
    const key = `\${${healthKeyId(prod)}.Arn}`;
    for (const id of [
      'ListMeasurements',
      'ListLogs',
      'ExportMe',
      'ListClientMeasurements',
      'ListClientLogs',
    ]) {
      const viaService = `dynamodb.${prod.stack.region}.amazonaws.com`;
      for (const action of ['kms:Encrypt', 'kms:GenerateDataKey', 'kms:ReEncryptFrom', 'kms:ReEncryptTo']) {
        expect(
          isAllowed(roleStatements(prod, id), { action, resource: key, viaService }),
          `${id} ${action}`,
        ).toBe(false);
      }
      expect(
        isAllowed(roleStatements(prod, id), { action: 'kms:Decrypt', resource: key, viaService }),
        id,
      ).toBe(true);
      // Never the key itself, outside DynamoDB.
      expect(isAllowed(roleStatements(prod, id), { action: 'kms:Decrypt', resource: key }), id).toBe(false);
    }
  });

  it('has no wildcard in any action of any policy of the stack, but the key policies AWS requires', () => {
    // Every policy document of the template, wherever it sits (role policies, bucket policies, trust
    // policies, the key policy), is found by its `Statement` list.
    const statements: { path: string; statement: Statement }[] = [];
    const collect = (value: Json | undefined, path: string): void => {
      if (!value || typeof value !== 'object') return;
      if (Array.isArray(value)) return value.forEach((item, i) => collect(item, `${path}[${i}]`));
      for (const [name, child] of Object.entries(value)) {
        if (name === 'Statement' && Array.isArray(child)) {
          for (const statement of child)
            statements.push({ path, statement: statement as unknown as Statement });
        } else collect(child, `${path}.${name}`);
      }
    };
    for (const [id, resource] of Object.entries(
      prod.template.toJSON().Resources as Record<string, CfnResource>,
    )) {
      collect(resource.Properties, id);
    }
    const wildcards = statements
      .filter(
        ({ statement }) => statement.Effect === 'Allow' && actionsOf(statement).some((a) => a.includes('*')),
      )
      .map(({ path, statement }) => `${path}: ${actionsOf(statement).join(',')}`);
    expect(statements.length).toBeGreaterThan(ALL_FUNCTIONS.length);
    const keyIds = Object.keys(resourcesOf(prod.template, 'AWS::KMS::Key'));
    expect(keyIds).toHaveLength(3);
    expect(wildcards.sort()).toEqual(keyIds.map((id) => `${id}.KeyPolicy: kms:*`).sort());
  });
});

describe('page cursor signing key', () => {
  const secret = (synth: Synthesized) =>
    resourcesOf(synth.template, 'AWS::SecretsManager::Secret')[secretId(synth)]!;
  const withCursorKey = (synth: Synthesized) =>
    ALL_FUNCTIONS.filter((fn) => 'CURSOR_SIGNING_KEY' in environmentOf(synth, fn.id)).map((fn) => fn.id);

  it('is one secret of the stage, generated by Secrets Manager: 64 letters and digits', () => {
    expect(Object.keys(resourcesOf(prod.template, 'AWS::SecretsManager::Secret'))).toEqual([secretId(prod)]);
    expect(secret(prod).Properties.GenerateSecretString).toEqual({
      PasswordLength: 64,
      ExcludePunctuation: true,
    });
    expect(secret(prod).Properties.SecretString).toBeUndefined();
  });

  it('reaches exactly the functions that sign page cursors: the health, coach, audit and admin lists', () => {
    for (const synth of [prod, dev]) {
      expect(withCursorKey(synth).sort()).toEqual([
        'ExportMe',
        'ListAudit',
        'ListClientLogs',
        'ListClientMeasurements',
        'ListInvitations',
        'ListLogs',
        'ListMeasurements',
        'ListUsers',
      ]);
    }
    expect(
      ALL_FUNCTIONS.filter((fn) => fn.pageCursors)
        .map((fn) => fn.id)
        .sort(),
    ).toEqual(withCursorKey(prod).sort());
  });

  it('is a dynamic reference CloudFormation resolves at deploy time, never a value in the template', () => {
    for (const id of withCursorKey(prod)) {
      expect(flatten(environmentOf(prod, id).CURSOR_SIGNING_KEY)).toBe(
        `{{resolve:secretsmanager:\${${secretId(prod)}}:SecretString:::}}`,
      );
    }
  });

  it('is not readable by any function at run time (CloudFormation resolves it, not the function)', () => {
    for (const definition of ALL_FUNCTIONS) {
      const actions = roleStatements(prod, definition.id).flatMap(actionsOf);
      expect(
        actions.filter((action) => action.startsWith('secretsmanager:')),
        definition.id,
      ).toEqual([]);
    }
  });

  it('is kept outside dev and deleted with a dev stack', () => {
    expect(secret(prod).DeletionPolicy).toBe('Retain');
    expect(secret(prod).UpdateReplacePolicy).toBe('Retain');
    expect(secret(dev).DeletionPolicy).toBe('Delete');
  });

  it('is not rotated, for the reviewed reason (cdk-nag SMG4)', () => {
    const suppressions = (
      secret(prod).Metadata?.cdk_nag as { rules_to_suppress: { id: string; reason: string }[] }
    ).rules_to_suppress;
    expect(suppressions.map((suppression) => suppression.id)).toEqual(['AwsSolutions-SMG4']);
    expect(suppressions[0]!.reason).toMatch(/page cursors/);
    expect(secret(prod).Properties.RotationRules).toBeUndefined();
    expect(resourcesOf(prod.template, 'AWS::SecretsManager::RotationSchedule')).toEqual({});
  });
});
