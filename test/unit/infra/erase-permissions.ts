/**
 * The DynamoDB and KMS permissions of the two functions that erase a person, DeleteUser and DeleteMe
 * (SPEC-2 sections 3.3 and 3.4), reviewed by hand against `lambdas/common/erase-account.ts`,
 * `lambdas/common/account-admin.ts` and the two handlers, as `dataPermissions` writes them. The
 * health-records and coaching tests pin them; handler-permissions.test.ts runs the erase against them.
 */
import { KEY_WRITE, permissionLines as lines } from './platform-template';

export const ERASE_FUNCTIONS = ['DeleteUser', 'DeleteMe'] as const;

/** Every function that erases: the two requests, and FinishErases, which finishes an erase they left. */
export const ERASING_FUNCTIONS = [...ERASE_FUNCTIONS, 'FinishErases'] as const;

export const ERASE_PERMISSIONS: readonly string[] = [
  // The account: read (the session check, the person), disabled in a guarded transaction that
  // checks another account is still an active admin (the acting admin, or the one who stays when an
  // admin leaves), and deleted last. Single items are deleted with DeleteItem, never a batch write,
  // which could also put items (a passkey, a recovery code, an account's roles).
  'dynamodb:GetItem accounts',
  'dynamodb:UpdateItem accounts',
  'dynamodb:ConditionCheckItem accounts',
  'dynamodb:DeleteItem accounts',
  // Passkeys: those the account lists and those byUser finds, deleted one by one.
  'dynamodb:Query passkeys/index/byUser',
  'dynamodb:DeleteItem passkeys',
  // Health records: the references in the person's own partition of the table (read consistently),
  // which name every measurement and log, all deleted in batches. The Query reaches that partition
  // only (`{userId}#R`): no reading, and no index.
  'dynamodb:Query healthRecords *#R',
  'dynamodb:BatchWriteItem healthRecords',
  ...lines(KEY_WRITE, 'healthRecords key'),
  // Coaching: the notes to the person and their own state, deleted in one batch (so one statement
  // must allow both prefixes: every leading key of a batch must match the same statement); the
  // clients they coach through their client items (`coach#*`, read consistently) and byCoach (the
  // assignments made before those items were kept), each unassigned in a transaction that deletes its
  // client item. Their own coach, read and unassigned (or checked to be none) in the disabling
  // transaction, with that coach's client item deleted (or by itself, should the state still name one).
  'dynamodb:Query coaching notes#*',
  'dynamodb:BatchWriteItem coaching client#* | notes#*',
  'dynamodb:ConditionCheckItem coaching client#*',
  'dynamodb:GetItem coaching client#*',
  'dynamodb:UpdateItem coaching client#*',
  'dynamodb:Query coaching coach#*',
  'dynamodb:DeleteItem coaching coach#*',
  'dynamodb:Query coaching/index/byCoach',
  ...lines(KEY_WRITE, 'coaching key'),
  // What is pending for the person (never a sign-in session or a proof).
  'dynamodb:DeleteItem authChallenges passkey#* | recovery#* | registration#*',
  'dynamodb:DeleteItem invitations',
  'dynamodb:DeleteItem profiles',
  ...lines(KEY_WRITE, 'profiles key'),
  // The erase's events (the deletion, each unassigned client); the log itself stays.
  'dynamodb:PutItem auditEvents',
];

/** The lines of `ERASE_PERMISSIONS` on one table (and its indexes) or its key. */
export const erasePermissionsOn = (table: string): string[] =>
  ERASE_PERMISSIONS.filter((line) => {
    const resource = line.split(' ')[1] ?? '';
    return resource === table || resource.startsWith(`${table}/index/`);
  });

/**
 * FinishErases's: the erase's, without what the disabling commit needs (it ran in the request: the
 * active-admin check, the person's own coaching checked), and a Query of the disabled accounts. It
 * keeps GetItem on a client's state: a coach's client whose unassignment was cancelled is read again.
 */
export const FINISH_ERASES_PERMISSIONS: readonly string[] = [
  ...ERASE_PERMISSIONS.filter(
    (line) =>
      ![
        'dynamodb:ConditionCheckItem accounts',
        'dynamodb:UpdateItem accounts',
        'dynamodb:ConditionCheckItem coaching client#*',
      ].includes(line),
  ),
  'dynamodb:Query accounts/index/byStatus',
  // Only the counts' items: the disabling commit that changed the account ran in the request.
  'dynamodb:UpdateItem accounts directory#counts#*',
];
