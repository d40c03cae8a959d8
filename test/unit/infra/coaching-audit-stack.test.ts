/**
 * Coaching and the audit log in the stack (SPEC-2 sections 2 and 4): the coaching table under a
 * customer-managed KMS key of its own, the append-only audit table, and what each function may do on
 * them. handler-permissions.test.ts runs the handlers against these roles; this file reads the roles.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_FUNCTIONS } from '../../../lambdas/routes';
import { TABLE_KEYS, TABLES, type TableDefinition, type TableKey } from '../../../shared/tables';
import {
  ERASE_FUNCTIONS,
  ERASE_PERMISSIONS,
  ERASING_FUNCTIONS,
  FINISH_ERASES_PERMISSIONS,
  erasePermissionsOn,
} from './erase-permissions';
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
  type Request,
  type Statement,
  type Synthesized,
} from './platform-template';

/** Someone's id, as the handlers build keys from it. */
const SOMEONE = '5a7e2c1d-8b3f-4c6a-9d2e-1f0b3a4c5d6e';

let prod: Synthesized;
let staging: Synthesized;
let dev: Synthesized;

beforeAll(() => {
  prod = synthPlatform({ stage: 'prod' });
  staging = synthPlatform({ stage: 'staging' });
  dev = synthPlatform({ stage: 'dev' });
});

const tableId = ({ stack }: Synthesized, key: TableKey) => logicalIdOf(stack, stack.tables.table(key));
const tableOf = (synth: Synthesized, key: TableKey): CfnResource =>
  resourcesOf(synth.template, 'AWS::DynamoDB::Table')[tableId(synth, key)]!;
const keyIdOf = ({ stack }: Synthesized, key: TableKey) => {
  const encryptionKey = stack.tables.encryptionKey(key);
  if (!encryptionKey) throw new Error(`The ${key} table has no key of its own.`);
  return logicalIdOf(stack, encryptionKey);
};
const coachingKey = (synth: Synthesized): CfnResource =>
  resourcesOf(synth.template, 'AWS::KMS::Key')[keyIdOf(synth, 'coaching')]!;
/** A table's ARN as `flatten` renders the template's `Fn::GetAtt`. */
const tableArn = (synth: Synthesized, key: TableKey) => `\${${tableId(synth, key)}.Arn}`;
const indexArn = (synth: Synthesized, key: TableKey, index: string) =>
  `${tableArn(synth, key)}/index/${index}`;
/** The table and each of its indexes. */
const tableResources = (synth: Synthesized, key: TableKey): string[] => [
  tableArn(synth, key),
  ...((TABLES[key] as TableDefinition).globalSecondaryIndexes ?? []).map((index) =>
    indexArn(synth, key, index.indexName),
  ),
];
/** Every function whose role allows the request, sorted. */
const allowedTo = (synth: Synthesized, request: Request): string[] =>
  ALL_FUNCTIONS.filter((definition) => isAllowed(functionStatements(synth, definition.id), request))
    .map((definition) => definition.id)
    .sort();
/** The lines of `dataPermissions` on one table (and its indexes) or its key. */
const permissionsOn = (synth: Synthesized, id: string, key: TableKey): string[] =>
  dataPermissions(synth, id).filter((line) => {
    const resource = line.split(' ')[1] ?? '';
    return resource === key || resource.startsWith(`${key}/index/`) || line.includes(` ${key} key`);
  });
const boundTo = (key: TableKey): string[] =>
  ALL_FUNCTIONS.filter((definition) => definition.tables[key]).map((definition) => definition.id);

const retainedStages = () => [prod, staging];

describe('coaching table', () => {
  it('is keyed by pk and sk, with the byCoach index on coachId and clientId holding every attribute', () => {
    const props = tableOf(prod, 'coaching').Properties;
    expect(props.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(props.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: 'byCoach',
        KeySchema: [
          { AttributeName: 'coachId', KeyType: 'HASH' },
          { AttributeName: 'clientId', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ]);
    expect(props.AttributeDefinitions).toEqual(
      expect.arrayContaining([
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
        { AttributeName: 'coachId', AttributeType: 'S' },
        { AttributeName: 'clientId', AttributeType: 'S' },
      ]),
    );
  });

  it('is on demand, with point-in-time recovery, on every stage', () => {
    for (const synth of [prod, staging, dev]) {
      const props = tableOf(synth, 'coaching').Properties;
      expect(props.BillingMode).toBe('PAY_PER_REQUEST');
      expect(props.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    }
  });

  it('is encrypted with a customer-managed KMS key of its own: neither the health key nor the AWS-managed key', () => {
    for (const synth of [prod, dev]) {
      expect(keyIdOf(synth, 'coaching')).not.toBe(keyIdOf(synth, 'healthRecords'));
      expect(tableOf(synth, 'coaching').Properties.SSESpecification).toEqual({
        SSEEnabled: true,
        SSEType: 'KMS',
        KMSMasterKeyId: { 'Fn::GetAtt': [keyIdOf(synth, 'coaching'), 'Arn'] },
      });
    }
  });

  it('has a symmetric key with automatic rotation and a description naming the table', () => {
    for (const synth of [prod, dev]) {
      const props = coachingKey(synth).Properties;
      expect(props.EnableKeyRotation).toBe(true);
      expect(props.KeySpec ?? 'SYMMETRIC_DEFAULT').toBe('SYMMETRIC_DEFAULT');
      expect(props.KeyUsage ?? 'ENCRYPT_DECRYPT').toBe('ENCRYPT_DECRYPT');
      expect(props.Description).toMatch(/coaching table/);
    }
  });

  it("leaves the key policy as AWS's default: the account's IAM policies decide who may use the key", () => {
    const policy = coachingKey(prod).Properties.KeyPolicy as unknown as { Statement: Statement[] };
    expect(policy.Statement).toHaveLength(1);
    const [statement] = policy.Statement;
    expect(statement!.Effect).toBe('Allow');
    expect(flatten((statement!.Principal as { AWS: Json }).AWS)).toBe('arn:aws:iam::${AWS::AccountId}:root');
    expect(statement!.Action).toBe('kms:*');
    expect(statement!.Condition).toBeUndefined();
  });

  it('keeps the table and its key on every stage but dev, with deletion protection on the table', () => {
    for (const synth of retainedStages()) {
      const table = tableOf(synth, 'coaching');
      expect([table.DeletionPolicy, table.UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
      expect(table.Properties.DeletionProtectionEnabled).toBe(true);
      // Without its key, the retained table and its backups could not be read.
      expect([coachingKey(synth).DeletionPolicy, coachingKey(synth).UpdateReplacePolicy]).toEqual([
        'Retain',
        'Retain',
      ]);
    }
  });

  it('deletes the table and schedules its key for deletion with a dev stack, without deletion protection', () => {
    const table = tableOf(dev, 'coaching');
    expect(table.DeletionPolicy).toBe('Delete');
    expect(table.Properties.DeletionProtectionEnabled).toBe(false);
    expect(coachingKey(dev).DeletionPolicy).toBe('Delete');
  });
});

describe('audit table', () => {
  it('is keyed by month (pk) and time (sk), with the bySubject, byActor, byType and byActivity indexes on sk', () => {
    const props = tableOf(prod, 'auditEvents').Properties;
    expect(props.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    const index = (name: string, partitionKey: string) => ({
      IndexName: name,
      KeySchema: [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    });
    expect(props.GlobalSecondaryIndexes).toEqual([
      index('bySubject', 'subjectId'),
      index('byActor', 'actorId'),
      index('byType', 'type'),
      index('byActivity', 'activityOf'),
    ]);
  });

  it('is on demand, with point-in-time recovery, on every stage', () => {
    for (const synth of [prod, staging, dev]) {
      const props = tableOf(synth, 'auditEvents').Properties;
      expect(props.BillingMode).toBe('PAY_PER_REQUEST');
      expect(props.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    }
  });

  it('lets DynamoDB delete events after their expiresAt', () => {
    for (const synth of [prod, dev]) {
      expect(tableOf(synth, 'auditEvents').Properties.TimeToLiveSpecification).toEqual({
        AttributeName: 'expiresAt',
        Enabled: true,
      });
    }
  });

  it('is encrypted with the AWS-managed key: it holds ids and reason codes, no health data', () => {
    expect(prod.stack.tables.encryptionKey('auditEvents')).toBeUndefined();
    expect(tableOf(prod, 'auditEvents').Properties.SSESpecification).toEqual({ SSEEnabled: true });
  });

  it('is kept on every stage but dev, with deletion protection', () => {
    for (const synth of retainedStages()) {
      const table = tableOf(synth, 'auditEvents');
      expect([table.DeletionPolicy, table.UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
      expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    }
    expect(tableOf(dev, 'auditEvents').DeletionPolicy).toBe('Delete');
    expect(tableOf(dev, 'auditEvents').Properties.DeletionProtectionEnabled).toBe(false);
  });
});

describe('audit log grants', () => {
  /** Every function that records events, reviewed by hand against the handlers. */
  const WRITERS = [
    // A sign-in start records the lock of its address (SPEC-2 section 5).
    'InitiateSignin',
    'VerifyActivation',
    'RegisterPasskey',
    'VerifyWebauthn',
    'CreateInvitation',
    'DeleteInvitation',
    'AssignCoach',
    'UnassignCoach',
    'ListCoachClients',
    'ListClientMeasurements',
    'ListClientLogs',
    'ListClientNotes',
    'CreateClientNote',
    // SPEC-2 section 3: passkey added, renamed, removed; recovery issued; roles changed; disabled;
    // enabled; deleted (and the clients an erased coach leaves unassigned); account deleted; resent.
    'AddPasskey',
    'RenamePasskey',
    'RemovePasskey',
    'ResetAccess',
    'ChangeRoles',
    'DisableUser',
    'EnableUser',
    'DeleteUser',
    'DeleteMe',
    // An erase cut short, finished: the deletion, each client left unassigned.
    'FinishErases',
    'ResendInvitation',
    // SPEC-2 section 4: data exported.
    'ExportMe',
  ];
  const READERS = ['ListAudit', 'ListMyActivity'];
  /** The functions whose role has any DynamoDB action on the audit table or an index of it. */
  const onAuditLog = (synth: Synthesized) =>
    ALL_FUNCTIONS.filter((definition) => permissionsOn(synth, definition.id, 'auditEvents').length > 0).map(
      (definition) => definition.id,
    );

  it('is reached by the reviewed writers and the two readers only, as the manifest binds them', () => {
    for (const synth of [prod, dev]) {
      expect(onAuditLog(synth).sort()).toEqual([...WRITERS, ...READERS].sort());
    }
    expect(boundTo('auditEvents').sort()).toEqual([...WRITERS, ...READERS].sort());
  });

  it('lets every function on it but the two readers PutItem on the table, and nothing else', () => {
    for (const synth of [prod, dev]) {
      const writers = onAuditLog(synth).filter((id) => !READERS.includes(id));
      expect(writers.length).toBe(WRITERS.length);
      for (const id of writers) {
        expect(permissionsOn(synth, id, 'auditEvents'), id).toEqual(['dynamodb:PutItem auditEvents']);
      }
    }
  });

  it('lets ListAudit only Query: the month partitions of the table and the three indexes its filters read', () => {
    for (const synth of [prod, dev]) {
      expect(permissionsOn(synth, 'ListAudit', 'auditEvents')).toEqual([
        'dynamodb:Query auditEvents ????-??',
        'dynamodb:Query auditEvents/index/byActor',
        'dynamodb:Query auditEvents/index/bySubject',
        'dynamodb:Query auditEvents/index/byType',
      ]);
    }
    const statements = functionStatements(prod, 'ListAudit');
    const table = tableArn(prod, 'auditEvents');
    const query = (resource: string, leadingKeys?: string[]) =>
      isAllowed(statements, { action: 'dynamodb:Query', resource, ...(leadingKeys && { leadingKeys }) });
    expect(query(table, ['2026-11'])).toBe(true);
    // Not a partition that is not a month, nor a Query without one, nor ListMyActivity's index.
    expect(query(table, ['2026-11#x'])).toBe(false);
    expect(query(table)).toBe(false);
    expect(query(indexArn(prod, 'auditEvents', 'byActivity'))).toBe(false);
  });

  it('lets ListMyActivity only Query the byActivity and bySubject indexes: not the table, nor the other indexes', () => {
    for (const synth of [prod, dev]) {
      expect(permissionsOn(synth, 'ListMyActivity', 'auditEvents')).toEqual([
        'dynamodb:Query auditEvents/index/byActivity',
        'dynamodb:Query auditEvents/index/bySubject',
      ]);
    }
    const statements = functionStatements(prod, 'ListMyActivity');
    for (const resource of [
      tableArn(prod, 'auditEvents'),
      indexArn(prod, 'auditEvents', 'byActor'),
      indexArn(prod, 'auditEvents', 'byType'),
    ]) {
      expect(isAllowed(statements, { action: 'dynamodb:Query', resource }), resource).toBe(false);
    }
  });

  it('lets the writers only add events and the readers only read them', () => {
    const table = tableArn(prod, 'auditEvents');
    expect(allowedTo(prod, { action: 'dynamodb:PutItem', resource: table })).toEqual([...WRITERS].sort());
    expect(allowedTo(prod, { action: 'dynamodb:Query', resource: table, leadingKeys: ['2026-11'] })).toEqual([
      'ListAudit',
    ]);
    expect(
      allowedTo(prod, { action: 'dynamodb:Query', resource: indexArn(prod, 'auditEvents', 'bySubject') }),
    ).toEqual(['ListAudit', 'ListMyActivity']);
    expect(
      allowedTo(prod, { action: 'dynamodb:Query', resource: indexArn(prod, 'auditEvents', 'byActivity') }),
    ).toEqual(['ListMyActivity']);
    for (const action of ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:PartiQLSelect']) {
      expect(allowedTo(prod, { action, resource: table }), action).toEqual([]);
    }
  });

  it('lets no function change or remove an event, scan the log, or change the table', () => {
    const actions = [
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
      'dynamodb:Scan',
      'dynamodb:PartiQLInsert',
      'dynamodb:PartiQLUpdate',
      'dynamodb:PartiQLDelete',
      'dynamodb:UpdateTable',
      'dynamodb:UpdateTimeToLive',
      'dynamodb:DeleteTable',
    ];
    for (const synth of [prod, dev]) {
      for (const resource of tableResources(synth, 'auditEvents')) {
        for (const action of actions) {
          expect(allowedTo(synth, { action, resource }), `${action} ${resource}`).toEqual([]);
        }
      }
    }
  });

  /** The statements of a table's resource policy (none without one). */
  const resourcePolicyOf = (synth: Synthesized, key: TableKey): Statement[] =>
    (
      tableOf(synth, key).Properties.ResourcePolicy as
        { PolicyDocument: { Statement: Statement[] } } | undefined
    )?.PolicyDocument.Statement ?? [];

  it('denies every principal, whatever its own policies allow, changing or removing an event: the table is append-only', () => {
    for (const synth of [prod, staging, dev]) {
      expect(resourcePolicyOf(synth, 'auditEvents')).toEqual([
        {
          Sid: 'AppendOnly',
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: [
            'dynamodb:BatchWriteItem',
            'dynamodb:DeleteItem',
            'dynamodb:PartiQLDelete',
            'dynamodb:PartiQLUpdate',
            'dynamodb:UpdateItem',
          ],
          Resource: '*',
        },
      ]);
      // The only table with a resource policy.
      for (const key of TABLE_KEYS.filter((key) => key !== 'auditEvents'))
        expect(tableOf(synth, key).Properties.ResourcePolicy, key).toBeUndefined();
    }
    // An administrator allowed everything on DynamoDB: the table's policy refuses the changes, not the
    // writers' PutItem nor the readers' Query.
    const administrator: Statement = { Effect: 'Allow', Action: 'dynamodb:*', Resource: '*' };
    const statements = [administrator, ...resourcePolicyOf(prod, 'auditEvents')];
    for (const resource of tableResources(prod, 'auditEvents')) {
      for (const action of ['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'])
        expect(isAllowed(statements, { action, resource }), `${action} ${resource}`).toBe(false);
      expect(isAllowed(statements, { action: 'dynamodb:Query', resource }), resource).toBe(true);
    }
    expect(
      isAllowed(statements, { action: 'dynamodb:PutItem', resource: tableArn(prod, 'auditEvents') }),
    ).toBe(true);
  });
});

describe('coaching grants', () => {
  /** What each function may do on the coaching table and its key, reviewed by hand against the handlers. */
  const ON_COACHING: Record<string, string[]> = {
    // The coach of each listed user.
    ListUsers: ['dynamodb:BatchGetItem coaching client#*', ...lines(KEY_READ, 'coaching key')],
    // The health writes keep the client's summary in their own transaction.
    CreateMeasurement: ['dynamodb:UpdateItem coaching client#*', ...lines(KEY_WRITE, 'coaching key')],
    DeleteMeasurement: ['dynamodb:UpdateItem coaching client#*', ...lines(KEY_WRITE, 'coaching key')],
    CreateLog: ['dynamodb:UpdateItem coaching client#*', ...lines(KEY_WRITE, 'coaching key')],
    // The person's data export holds every note written to them.
    ExportMe: [
      'dynamodb:GetItem coaching client#*',
      'dynamodb:Query coaching notes#*',
      ...lines(KEY_READ, 'coaching key'),
    ],
    // The assignment puts the coach's client item (`coach#*`) and deletes the previous coach's; an
    // unassignment deletes it.
    AssignCoach: [
      'dynamodb:GetItem coaching client#*',
      'dynamodb:UpdateItem coaching client#*',
      'dynamodb:PutItem coaching coach#*',
      'dynamodb:DeleteItem coaching coach#*',
      ...lines(KEY_WRITE, 'coaching key'),
    ],
    UnassignCoach: [
      'dynamodb:GetItem coaching client#*',
      'dynamodb:UpdateItem coaching client#*',
      'dynamodb:DeleteItem coaching coach#*',
      ...lines(KEY_WRITE, 'coaching key'),
    ],
    // byCoach finds the clients; their states are then read consistently (the index lags its table),
    // and checked again in the transactions that record the read.
    ListCoachClients: [
      'dynamodb:Query coaching/index/byCoach',
      'dynamodb:BatchGetItem coaching client#*',
      'dynamodb:ConditionCheckItem coaching client#*',
      ...lines(KEY_READ, 'coaching key'),
    ],
    // The client's state read, and checked again in the transaction that records the read.
    ListClientMeasurements: [
      'dynamodb:ConditionCheckItem coaching client#*',
      'dynamodb:GetItem coaching client#*',
      ...lines(KEY_READ, 'coaching key'),
    ],
    ListClientLogs: [
      'dynamodb:ConditionCheckItem coaching client#*',
      'dynamodb:GetItem coaching client#*',
      ...lines(KEY_READ, 'coaching key'),
    ],
    // A Query grant covers the table and its index; on byCoach the leading key is a coach id, which
    // `notes#*` never matches, so only the notes partition is readable (tested below).
    ListClientNotes: [
      'dynamodb:ConditionCheckItem coaching client#*',
      'dynamodb:GetItem coaching client#*',
      'dynamodb:Query coaching notes#*',
      ...lines(KEY_READ, 'coaching key'),
    ],
    // Sent again with its Idempotency-Key, it reads the key and the note the first try stored.
    CreateClientNote: [
      'dynamodb:GetItem coaching client#*',
      'dynamodb:UpdateItem coaching client#*',
      'dynamodb:GetItem coaching notes#*',
      'dynamodb:PutItem coaching notes#*',
      ...lines(KEY_WRITE, 'coaching key'),
    ],
    GetMyCoach: [
      'dynamodb:GetItem coaching client#*',
      'dynamodb:Query coaching notes#*',
      ...lines(KEY_READ, 'coaching key'),
    ],
    // A role change ends the coaching that rested on the role: the person's coach (in the change's
    // own transaction: unassigned, or checked to have none), their clients (found through their
    // client items, read consistently, and byCoach for assignments older than those items).
    ChangeRoles: [
      'dynamodb:ConditionCheckItem coaching client#*',
      'dynamodb:GetItem coaching client#*',
      'dynamodb:UpdateItem coaching client#*',
      'dynamodb:Query coaching coach#*',
      'dynamodb:DeleteItem coaching coach#*',
      'dynamodb:Query coaching/index/byCoach',
      ...lines(KEY_WRITE, 'coaching key'),
    ],
    // A disabled person is nobody's client: their coach unassigned in the disable's own transaction, or
    // checked to be none.
    DisableUser: [
      'dynamodb:ConditionCheckItem coaching client#*',
      'dynamodb:GetItem coaching client#*',
      'dynamodb:UpdateItem coaching client#*',
      'dynamodb:DeleteItem coaching coach#*',
      ...lines(KEY_WRITE, 'coaching key'),
    ],
    // Erasing a person: their notes and state deleted, the clients they coach unassigned.
    ...Object.fromEntries(ERASE_FUNCTIONS.map((id) => [id, erasePermissionsOn('coaching')])),
    FinishErases: FINISH_ERASES_PERMISSIONS.filter((line) =>
      (line.split(' ')[1] ?? '').startsWith('coaching'),
    ),
  };
  const COACHING_FUNCTIONS = Object.keys(ON_COACHING);

  /** The read of the caller's account every authenticated route makes (lambdas/common/session.ts). */
  const SESSION_CHECK = 'dynamodb:GetItem accounts';
  /** The whole DynamoDB and KMS permissions of the coaching routes. */
  const REVIEWED: Record<string, string[]> = {
    AssignCoach: [
      SESSION_CHECK,
      // The assignment commits only while both accounts hold their roles.
      'dynamodb:ConditionCheckItem accounts',
      'dynamodb:BatchGetItem profiles',
      ...lines(KEY_READ, 'profiles key'),
      ...ON_COACHING.AssignCoach!,
      'dynamodb:PutItem auditEvents',
    ],
    UnassignCoach: [
      SESSION_CHECK,
      // The unassignment commits only while its admin is still an active admin.
      'dynamodb:ConditionCheckItem accounts',
      ...ON_COACHING.UnassignCoach!,
      'dynamodb:PutItem auditEvents',
    ],
    ListCoachClients: [
      SESSION_CHECK,
      'dynamodb:ConditionCheckItem accounts',
      'dynamodb:BatchGetItem profiles',
      ...lines(KEY_READ, 'profiles key'),
      ...ON_COACHING.ListCoachClients!,
      'dynamodb:PutItem auditEvents',
    ],
    ListClientMeasurements: [
      SESSION_CHECK,
      'dynamodb:ConditionCheckItem accounts',
      ...ON_COACHING.ListClientMeasurements!,
      'dynamodb:Query healthRecords',
      'dynamodb:Query healthRecords/index/byOwner',
      ...lines(KEY_READ, 'healthRecords key'),
      'dynamodb:PutItem auditEvents',
    ],
    ListClientLogs: [
      SESSION_CHECK,
      'dynamodb:ConditionCheckItem accounts',
      ...ON_COACHING.ListClientLogs!,
      'dynamodb:Query healthRecords',
      'dynamodb:Query healthRecords/index/byOwner',
      ...lines(KEY_READ, 'healthRecords key'),
      'dynamodb:PutItem auditEvents',
    ],
    ListClientNotes: [
      SESSION_CHECK,
      'dynamodb:ConditionCheckItem accounts',
      ...ON_COACHING.ListClientNotes!,
      'dynamodb:PutItem auditEvents',
    ],
    CreateClientNote: [
      SESSION_CHECK,
      'dynamodb:ConditionCheckItem accounts',
      'dynamodb:BatchGetItem profiles',
      ...lines(KEY_READ, 'profiles key'),
      ...ON_COACHING.CreateClientNote!,
      'dynamodb:PutItem auditEvents',
    ],
    GetMyCoach: [
      SESSION_CHECK,
      'dynamodb:BatchGetItem profiles',
      ...lines(KEY_READ, 'profiles key'),
      ...ON_COACHING.GetMyCoach!,
    ],
    ...Object.fromEntries(ERASE_FUNCTIONS.map((id) => [id, [...ERASE_PERMISSIONS]])),
    FinishErases: [...FINISH_ERASES_PERMISSIONS],
  };
  const COACH_CLIENT_ROUTES = [
    'ListClientMeasurements',
    'ListClientLogs',
    'ListClientNotes',
    'CreateClientNote',
  ];
  const client = (prefix: 'client' | 'notes', id = SOMEONE) => [`${prefix}#${id}`];

  it('are exactly the functions the manifest binds to the coaching table', () => {
    expect(boundTo('coaching')).toEqual(COACHING_FUNCTIONS);
  });

  it.each(COACHING_FUNCTIONS)(
    '%s may take exactly the reviewed actions on the coaching table and its key',
    (id) => {
      for (const synth of [prod, dev]) {
        expect(permissionsOn(synth, id, 'coaching')).toEqual([...ON_COACHING[id]!].sort());
      }
    },
  );

  it.each(Object.keys(REVIEWED))(
    '%s may take exactly the reviewed DynamoDB and KMS actions, on those resources only',
    (id) => {
      for (const synth of [prod, dev]) expect(dataPermissions(synth, id)).toEqual([...REVIEWED[id]!].sort());
    },
  );

  it.each(COACH_CLIENT_ROUTES)(
    '%s reads the coaching table only at a client state (client#*) or, for notes, a notes partition',
    (id) => {
      const statements = functionStatements(prod, id);
      const resource = tableArn(prod, 'coaching');
      const allowed = (action: string, leadingKeys: string[]) =>
        isAllowed(statements, { action: `dynamodb:${action}`, resource, leadingKeys });
      expect(allowed('GetItem', client('client'))).toBe(true);
      expect(allowed('GetItem', client('notes'))).toBe(id === 'CreateClientNote');
      expect(allowed('GetItem', [SOMEONE])).toBe(false);
      expect(allowed('Query', client('notes'))).toBe(id === 'ListClientNotes');
      expect(allowed('Query', client('client'))).toBe(false);
      expect(allowed('PutItem', client('notes'))).toBe(id === 'CreateClientNote');
      expect(allowed('PutItem', client('client'))).toBe(false);
    },
  );

  it('lets the coach client routes query health records and record the read, and no other table', () => {
    for (const id of COACH_CLIENT_ROUTES) {
      const tables = new Set(
        dataPermissions(prod, id).map((line) => (line.split(' ')[1] ?? '').split('/')[0]),
      );
      const reads = id === 'ListClientMeasurements' || id === 'ListClientLogs';
      expect([...tables].sort(), id).toEqual(
        [
          // The session check.
          'accounts',
          'auditEvents',
          'coaching',
          ...(reads ? ['healthRecords'] : []),
          ...(id === 'CreateClientNote' ? ['profiles'] : []),
        ].sort(),
      );
      const statements = functionStatements(prod, id);
      expect(
        isAllowed(statements, { action: 'dynamodb:Query', resource: tableArn(prod, 'healthRecords') }),
      ).toBe(reads);
      expect(
        isAllowed(statements, { action: 'dynamodb:PutItem', resource: tableArn(prod, 'auditEvents') }),
      ).toBe(true);
    }
  });

  it("lets only ListCoachClients list a coach's clients through byCoach, and the erase and a role change find a former coach's", () => {
    const resource = indexArn(prod, 'coaching', 'byCoach');
    expect(allowedTo(prod, { action: 'dynamodb:Query', resource, leadingKeys: [SOMEONE] })).toEqual(
      [...ERASING_FUNCTIONS, 'ChangeRoles', 'ListCoachClients'].sort(),
    );
  });

  it("lets only CreateClientNote write a note (and read back the one it stored), only GetMyCoach, ListClientNotes and the person's export list them, nobody change one, and only the erase delete them", () => {
    const resource = tableArn(prod, 'coaching');
    const notes = client('notes');
    expect(allowedTo(prod, { action: 'dynamodb:PutItem', resource, leadingKeys: notes })).toEqual([
      'CreateClientNote',
    ]);
    expect(allowedTo(prod, { action: 'dynamodb:Query', resource, leadingKeys: notes })).toEqual(
      [...ERASING_FUNCTIONS, 'ExportMe', 'GetMyCoach', 'ListClientNotes'].sort(),
    );
    expect(allowedTo(prod, { action: 'dynamodb:GetItem', resource, leadingKeys: notes })).toEqual([
      'CreateClientNote',
    ]);
    for (const action of ['dynamodb:UpdateItem', 'dynamodb:DeleteItem']) {
      expect(allowedTo(prod, { action, resource, leadingKeys: notes }), action).toEqual([]);
    }
    expect(allowedTo(prod, { action: 'dynamodb:BatchWriteItem', resource, leadingKeys: notes })).toEqual(
      [...ERASING_FUNCTIONS].sort(),
    );
  });

  it("lets only the health writes, the assignment routes, a new note, a role change, a disable and the erase change a client's state, and only the erase delete it", () => {
    const resource = tableArn(prod, 'coaching');
    const state = client('client');
    expect(allowedTo(prod, { action: 'dynamodb:UpdateItem', resource, leadingKeys: state })).toEqual([
      'AssignCoach',
      'ChangeRoles',
      'CreateClientNote',
      'CreateLog',
      'CreateMeasurement',
      'DeleteMe',
      'DeleteMeasurement',
      'DeleteUser',
      'DisableUser',
      'FinishErases',
      'UnassignCoach',
    ]);
    for (const action of ['dynamodb:PutItem', 'dynamodb:DeleteItem']) {
      expect(allowedTo(prod, { action, resource, leadingKeys: state }), action).toEqual([]);
    }
    expect(allowedTo(prod, { action: 'dynamodb:BatchWriteItem', resource, leadingKeys: state })).toEqual(
      [...ERASING_FUNCTIONS].sort(),
    );
    // The erase deletes a person's notes and their state in one batch.
    expect(
      allowedTo(prod, {
        action: 'dynamodb:BatchWriteItem',
        resource,
        leadingKeys: [...client('notes'), ...state],
      }),
    ).toEqual([...ERASING_FUNCTIONS].sort());
  });

  it("lets only an assignment put a coach's client item, only what ends a coaching delete one, and only a role change and the erase read a coach's", () => {
    const resource = tableArn(prod, 'coaching');
    const items = [`coach#${SOMEONE}`];
    expect(allowedTo(prod, { action: 'dynamodb:PutItem', resource, leadingKeys: items })).toEqual([
      'AssignCoach',
    ]);
    expect(allowedTo(prod, { action: 'dynamodb:DeleteItem', resource, leadingKeys: items })).toEqual(
      [...ERASING_FUNCTIONS, 'AssignCoach', 'ChangeRoles', 'DisableUser', 'UnassignCoach'].sort(),
    );
    expect(allowedTo(prod, { action: 'dynamodb:Query', resource, leadingKeys: items })).toEqual(
      [...ERASING_FUNCTIONS, 'ChangeRoles'].sort(),
    );
    for (const action of ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem']) {
      expect(allowedTo(prod, { action, resource, leadingKeys: items }), action).toEqual([]);
    }
  });

  it('lets no function scan the coaching table, the health records or the audit log, or any of their indexes', () => {
    for (const key of ['coaching', 'healthRecords', 'auditEvents'] as const) {
      for (const resource of tableResources(prod, key)) {
        expect(allowedTo(prod, { action: 'dynamodb:Scan', resource }), resource).toEqual([]);
      }
    }
  });
});

describe('coaching key', () => {
  const READ_ONLY = [
    'ExportMe',
    'ListUsers',
    'ListCoachClients',
    'ListClientMeasurements',
    'ListClientLogs',
    'ListClientNotes',
    'GetMyCoach',
  ];

  it('is usable only by the functions bound to the coaching table', () => {
    for (const synth of [prod, dev]) {
      const key = flatten({ 'Fn::GetAtt': [keyIdOf(synth, 'coaching'), 'Arn'] });
      const withKey = ALL_FUNCTIONS.filter((definition) =>
        functionStatements(synth, definition.id).some(
          (statement) =>
            actionsOf(statement).some((action) => action.startsWith('kms:')) &&
            resourcesOfStatement(statement).some((resource) => flatten(resource) === key),
        ),
      ).map((definition) => definition.id);
      expect(withKey).toEqual(boundTo('coaching'));
      const viaService = `dynamodb.${synth.stack.region}.amazonaws.com`;
      expect(allowedTo(synth, { action: 'kms:Decrypt', resource: key, viaService })).toEqual(
        [...withKey].sort(),
      );
      // Through DynamoDB only: no role may decrypt with the key itself.
      expect(allowedTo(synth, { action: 'kms:Decrypt', resource: key })).toEqual([]);
    }
  });

  it('lets a function that only reads coaching neither encrypt nor make data keys with it', () => {
    const key = `\${${keyIdOf(prod, 'coaching')}.Arn}`;
    const viaService = `dynamodb.${prod.stack.region}.amazonaws.com`;
    for (const id of READ_ONLY) {
      const statements = functionStatements(prod, id);
      for (const action of ['kms:Encrypt', 'kms:GenerateDataKey', 'kms:ReEncryptFrom', 'kms:ReEncryptTo']) {
        expect(isAllowed(statements, { action, resource: key, viaService }), `${id} ${action}`).toBe(false);
      }
      expect(isAllowed(statements, { action: 'kms:Decrypt', resource: key, viaService }), id).toBe(true);
    }
  });
});
