/**
 * Coaching (SPEC-2 section 2), keyed as `TABLES.coaching` describes: one state item per client (the
 * coach, this coach's last note, and the summary health writes keep up to date) and the notes.
 * Coach notes and the summary are health data: never logged.
 */
import { GetCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { NOTES_SHOWN, OUT_OF_TARGET_WINDOW_DAYS, type CoachNote } from '../../../shared/coaching';
import { FUTURE_TOLERANCE_MS } from '../../../shared/health';
import { ddb, type TransactItem } from '../aws';
import { conditionFailedAt, transactIf, transactWrite, type CommitChecks } from '../transactions';
import { batchGetAll } from '../batch-get';
import { queryAttributes } from '../batch-write';
import { tableName } from '../env';
import { requireSameRequest, Unauthorized } from '../errors';

const table = () => tableName('coaching');
const COACH_INDEX = 'byCoach';
const STATE = 'state';
const DAY_MS = 24 * 60 * 60 * 1000;

const stateKey = (clientId: string) => ({ pk: `client#${clientId}`, sk: STATE });
/**
 * A coach's consistent list of clients: one item per assignment (`TABLES.coaching`), put and deleted
 * in the transactions that set and remove the state's `coachId`. It holds no `coachId`, so `byCoach`
 * never lists it.
 */
const COACH_CLIENTS = 'coach#';
const CLIENT_SK = 'client#';
const coachClientsPartition = (coachId: string) => `${COACH_CLIENTS}${coachId}`;
export const coachClientKey = (coachId: string, clientId: string) => ({
  pk: coachClientsPartition(coachId),
  sk: `${CLIENT_SK}${clientId}`,
});
const coachClientPut = (coachId: string, clientId: string, at: string): TransactItem => ({
  Put: { TableName: table(), Item: { ...coachClientKey(coachId, clientId), clientId, assignedAt: at } },
});
const coachClientDelete = (coachId: string, clientId: string): TransactItem => ({
  Delete: { TableName: table(), Key: coachClientKey(coachId, clientId) },
});
const notesKey = (clientId: string) => `notes#${clientId}`;
/** Sort keys of a client's note keys begin here; every note's sort key (a time) sorts before it. */
const NOTE_KEYS = 'key#';
const noteKeySk = (coachId: string, key: string) => `${NOTE_KEYS}${coachId}#${key}`;
/** The counter attribute of readings outside target taken on one UTC day. */
const dayAttribute = (day: string) => `oot_${day}`;

export interface ClientState {
  readonly clientId: string;
  readonly coachId?: string;
  readonly assignedAt?: string;
  readonly lastNoteAt?: string;
  readonly lastEntryAt?: string;
  readonly lastOutOfTargetAt?: string;
  readonly [counter: `oot_${string}`]: number | undefined;
}

/** Who coaches a client, as a state item holds it. */
export type ClientCoach = Pick<ClientState, 'clientId' | 'coachId'>;

/**
 * Who coaches the client, read consistently from their state: an unassigned coach loses access on the
 * next request. Only the two ids: the summary beside them is health data, which none of the callers
 * (the admin's assignment routes, the client's own coach page, the coach checks) needs.
 */
export const getClientCoach = async (clientId: string): Promise<ClientCoach | undefined> => {
  const result = await ddb.send(
    new GetCommand({
      TableName: table(),
      Key: stateKey(clientId),
      ConsistentRead: true,
      ProjectionExpression: 'clientId, coachId',
    }),
  );
  return result.Item as ClientCoach | undefined;
};

/** The UTC days of the out-of-target window ending `now`, newest first. */
export const windowDays = (now: Date, days = OUT_OF_TARGET_WINDOW_DAYS): string[] =>
  Array.from({ length: days }, (_, i) => new Date(now.getTime() - i * DAY_MS).toISOString().slice(0, 10));

/** Readings outside target in the window, from the per-day counters of a state item. */
export const outOfTargetInWindow = (state: ClientState, now: Date): number =>
  windowDays(now).reduce((sum, day) => sum + Math.max(0, Number(state[`oot_${day}`] ?? 0)), 0);

/**
 * The day counter a reading taken at `takenAt` counts in, when it is inside the window. A reading may be
 * dated up to `FUTURE_TOLERANCE_MS` ahead: one taken just after midnight UTC, stored just before, counts
 * in tomorrow's counter, which the window reads once tomorrow comes.
 */
export const windowDayOf = (takenAt: string, now: Date): string | undefined => {
  const day = takenAt.slice(0, 10);
  const latest = new Date(now.getTime() + FUTURE_TOLERANCE_MS).toISOString().slice(0, 10);
  return day === latest || windowDays(now).includes(day) ? day : undefined;
};

/**
 * The summary update a health write commits with the record: the client's last entry, and for a
 * reading outside target, its day's counter and the time Pending Reviews compares with the last note.
 * Counters of the week before the window are dropped on the way, so the item stays small.
 */
export const entrySummaryItem = (
  clientId: string,
  now: Date,
  outOfTarget?: { readonly day?: string },
): TransactItem => {
  const at = now.toISOString();
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':at': at, ':client': clientId };
  const set = ['clientId = :client', 'lastEntryAt = :at'];
  const add: string[] = [];
  if (outOfTarget) {
    set.push('lastOutOfTargetAt = :at');
    if (outOfTarget.day !== undefined) {
      names['#day'] = dayAttribute(outOfTarget.day);
      values[':one'] = 1;
      add.push('#day :one');
    }
  }
  const stale = windowDays(new Date(now.getTime() - OUT_OF_TARGET_WINDOW_DAYS * DAY_MS)).map((day, i) => {
    names[`#old${i}`] = dayAttribute(day);
    return `#old${i}`;
  });
  return {
    Update: {
      TableName: table(),
      Key: stateKey(clientId),
      UpdateExpression: [
        `SET ${set.join(', ')}`,
        add.length > 0 ? `ADD ${add.join(', ')}` : '',
        `REMOVE ${stale.join(', ')}`,
      ]
        .filter(Boolean)
        .join(' '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
};

/** Takes a deleted reading out of its day's counter (only readings inside the window were counted). */
export const entryDeletedSummaryItem = (clientId: string, day: string): TransactItem => ({
  Update: {
    TableName: table(),
    Key: stateKey(clientId),
    UpdateExpression: 'ADD #day :minus',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#day': dayAttribute(day) },
    ExpressionAttributeValues: { ':minus': -1 },
  },
});

/**
 * Makes `coachId` the client's coach, committed with its audit event and the coach's client item (the
 * previous coach's deleted). A new coach starts with no note to the client; reassigning the same coach
 * changes nothing but the time. False when the state is no longer `previous`, or one of `guards` failed
 * (the caller reads both again).
 */
export const assignCoach = async (
  clientId: string,
  coachId: string,
  previous: ClientCoach | undefined,
  at: string,
  audit: TransactItem,
  guards: readonly TransactItem[] = [],
): Promise<boolean> => {
  const sameCoach = previous?.coachId === coachId;
  return transactIf({
    TransactItems: [
      ...guards,
      {
        Update: {
          TableName: table(),
          Key: stateKey(clientId),
          UpdateExpression: `SET clientId = :client, coachId = :coach, assignedAt = :at${sameCoach ? '' : ' REMOVE lastNoteAt'}`,
          ConditionExpression:
            previous?.coachId === undefined ? 'attribute_not_exists(coachId)' : 'coachId = :previous',
          ExpressionAttributeValues: {
            ':client': clientId,
            ':coach': coachId,
            ':at': at,
            ...(previous?.coachId !== undefined && { ':previous': previous.coachId }),
          },
        },
      },
      coachClientPut(coachId, clientId, at),
      ...(previous?.coachId !== undefined && !sameCoach
        ? [coachClientDelete(previous.coachId, clientId)]
        : []),
      audit,
    ],
  });
};

/**
 * Transaction items removing the client's coach, while it is still `coachId`, with the coach's client
 * item: the state's update first (a caller may tell its failed condition by index 0 of these).
 */
export const unassignItems = (clientId: string, coachId: string): TransactItem[] => [
  {
    Update: {
      TableName: table(),
      Key: stateKey(clientId),
      UpdateExpression: 'REMOVE coachId, assignedAt, lastNoteAt',
      ConditionExpression: 'coachId = :coach',
      ExpressionAttributeValues: { ':coach': coachId },
    },
  },
  coachClientDelete(coachId, clientId),
];

/** Transaction item checking that the client's coach is `coachId`. */
export const coachOfCheckItem = (clientId: string, coachId: string): TransactItem => ({
  ConditionCheck: {
    TableName: table(),
    Key: stateKey(clientId),
    ConditionExpression: 'coachId = :coach',
    ExpressionAttributeValues: { ':coach': coachId },
  },
});

/** Transaction item checking that the client has no coach (nor any state yet). */
export const noCoachCheckItem = (clientId: string): TransactItem => ({
  ConditionCheck: {
    TableName: table(),
    Key: stateKey(clientId),
    ConditionExpression: 'attribute_not_exists(coachId)',
  },
});

/**
 * Removes the client's coach, committed with its audit event; false when there was none (or it changed).
 * With `onlyIf` (an admin's unassignment: `whileStillAdmin`), only while those checks hold, else their
 * refusal.
 */
export const unassignCoach = async (
  clientId: string,
  coachId: string,
  audit: TransactItem,
  onlyIf?: CommitChecks,
): Promise<boolean> => transactIf({ TransactItems: [...unassignItems(clientId, coachId), audit] }, onlyIf);

/** The coach of each of these people who has one (the admin user list). */
export const getCoachIds = async (userIds: readonly string[]): Promise<Map<string, string>> => {
  const items = await batchGetAll(table(), userIds.map(stateKey), {
    ProjectionExpression: 'clientId, coachId',
  });
  return new Map(
    (items as { clientId?: string; coachId?: string }[]).flatMap(({ clientId, coachId }) =>
      clientId !== undefined && coachId !== undefined ? [[clientId, coachId] as const] : [],
    ),
  );
};

/**
 * The ids `byCoach` lists for a coach (the client list); an index lags its table in AWS, so read the
 * states after: a client assigned a moment ago may be missing.
 */
export const findCoachClientIds = async (coachId: string): Promise<string[]> =>
  (
    await queryAttributes(
      {
        TableName: table(),
        IndexName: COACH_INDEX,
        KeyConditionExpression: 'coachId = :coach',
        ExpressionAttributeValues: { ':coach': coachId },
      },
      ['clientId'],
    )
  ).map((item) => String(item.clientId));

/**
 * Every client of the coach whose assignment committed before this call: the coach's client items, read
 * consistently, with what `byCoach` lists besides (an assignment made before the client items were kept
 * has none: decision 042, 2026-11-27). Ids only: a client unassigned meanwhile may be among them, so
 * the caller unassigns each only while its state still names the coach.
 */
export const findAllCoachClientIds = async (coachId: string): Promise<string[]> => {
  const [kept, indexed] = await Promise.all([
    queryAttributes(
      {
        TableName: table(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': coachClientsPartition(coachId) },
        ConsistentRead: true,
      },
      ['clientId'],
    ),
    findCoachClientIds(coachId),
  ]);
  return [...new Set([...kept.map((item) => String(item.clientId)), ...indexed])];
};

/**
 * The states of these clients, read consistently (100 a call), of those whose state names the coach
 * now: a client unassigned or reassigned a moment ago, whom the index may still list, is left out.
 */
export const readCoachClientStates = async (
  coachId: string,
  clientIds: readonly string[],
): Promise<ClientState[]> => {
  const states = (await batchGetAll(table(), clientIds.map(stateKey), {
    ConsistentRead: true,
  })) as unknown as ClientState[];
  const byClient = new Map(states.map((state) => [state.clientId, state]));
  return clientIds.flatMap((clientId) => {
    const state = byClient.get(clientId);
    return state?.coachId === coachId ? [state] : [];
  });
};

/**
 * A note as stored: its author is `authorId`, because an item with a `coachId` would be listed by
 * `byCoach` as one of the coach's clients.
 */
const storedNote = ({ coachId, ...note }: CoachNote) => ({
  ...note,
  authorId: coachId,
  pk: notesKey(note.clientId),
  sk: `${note.createdAt}#${note.noteId}`,
});

/**
 * Stores a note only while its author is the client's coach (the condition is on the same state item,
 * in the same transaction) and the author's session still passes the session check (`authorCheck`,
 * else 401: a disable, delete, role change or sign-out committed since the request was checked), marks
 * this coach's last note, and commits the audit event with both.
 * With an idempotency key (decision 061), the key is put in the same transaction with the request's
 * fingerprint, only if this coach has not used it for this client: the same create sent again writes
 * nothing (no second note, no second event) and answers the note the first one stored; sent with
 * another request (another fingerprint), it writes nothing either and is refused (422). Undefined when
 * the author is not the client's coach at that moment (or the note stored before is gone, which only
 * an erase does).
 */
export const putNote = async (
  note: CoachNote,
  authorCheck: TransactItem,
  audit: TransactItem,
  idempotency?: { readonly key: string; readonly fingerprint: string },
): Promise<CoachNote | undefined> => {
  const stored = storedNote(note);
  const keyItem = idempotency !== undefined && {
    pk: stored.pk,
    sk: noteKeySk(note.coachId, idempotency.key),
    noteSk: stored.sk,
    fingerprint: idempotency.fingerprint,
  };
  try {
    await transactWrite({
      TransactItems: [
        authorCheck,
        {
          Update: {
            TableName: table(),
            Key: stateKey(note.clientId),
            UpdateExpression: 'SET lastNoteAt = :at',
            ConditionExpression: 'coachId = :coach',
            ExpressionAttributeValues: { ':at': note.createdAt, ':coach': note.coachId },
          },
        },
        { Put: { TableName: table(), Item: stored, ConditionExpression: 'attribute_not_exists(pk)' } },
        ...(keyItem
          ? [{ Put: { TableName: table(), Item: keyItem, ConditionExpression: 'attribute_not_exists(pk)' } }]
          : []),
        audit,
      ],
    });
    return note;
  } catch (error) {
    if (conditionFailedAt(error, 0)) throw new Unauthorized();
    if (conditionFailedAt(error, 1)) return undefined;
    if (keyItem && conditionFailedAt(error, 3)) return noteByKey(note.clientId, keyItem);
    throw error;
  }
};

/**
 * The note a key item points to (both read consistently); undefined if either is gone. 422 when the key
 * was put by another request (another fingerprint); a key put before fingerprints were kept has none,
 * and is taken as this request, as it was then.
 */
const noteByKey = async (
  clientId: string,
  sent: { readonly sk: string; readonly fingerprint: string },
): Promise<CoachNote | undefined> => {
  const key = await ddb.send(
    new GetCommand({
      TableName: table(),
      Key: { pk: notesKey(clientId), sk: sent.sk },
      ConsistentRead: true,
    }),
  );
  const noteSk: unknown = key.Item?.noteSk;
  if (typeof noteSk !== 'string') return undefined;
  requireSameRequest(key.Item?.fingerprint, sent.fingerprint);
  const item = await ddb.send(
    new GetCommand({ TableName: table(), Key: { pk: notesKey(clientId), sk: noteSk }, ConsistentRead: true }),
  );
  return item.Item && noteOf(item.Item);
};

/** A note as the lists answer it: its author as `coachId`, without the keys. */
const noteOf = (item: Record<string, unknown>): CoachNote => {
  const { pk: _pk, sk: _sk, authorId, ...note } = item;
  return { ...note, coachId: authorId } as CoachNote;
};

/** The Query of a client's notes, newest first, read consistently: never their keys (`sk < key#`). */
const notesNewestFirst = (clientId: string) => ({
  TableName: table(),
  KeyConditionExpression: 'pk = :pk AND sk < :keys',
  ExpressionAttributeValues: { ':pk': notesKey(clientId), ':keys': NOTE_KEYS },
  ScanIndexForward: false,
  ConsistentRead: true,
});

/** The client's newest notes, newest first. */
export const listNotes = async (clientId: string): Promise<CoachNote[]> => {
  const result = await ddb.send(
    new QueryCommand({
      ...notesNewestFirst(clientId),
      Limit: NOTES_SHOWN,
    }),
  );
  return (result.Items ?? []).map(noteOf);
};

/** Every note written to the client, newest first, page by page (their data export). */
export const listAllNotes = async (clientId: string): Promise<CoachNote[]> => {
  const notes: CoachNote[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page: QueryCommandOutput = await ddb.send(
      new QueryCommand({
        ...notesNewestFirst(clientId),
        ...(start && { ExclusiveStartKey: start }),
      }),
    );
    notes.push(...(page.Items ?? []).map(noteOf));
    start = page.LastEvaluatedKey;
  } while (start);
  return notes;
};
