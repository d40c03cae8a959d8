/**
 * Keeps the pool's state in memory or in a folder of JSON files. Every file is replaced atomically
 * (write a temporary file, fsync, rename), so a crash leaves the old or the new version, never half.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { PersistenceOption } from './config';
import {
  emptyState,
  groupRecordSchema,
  refreshRecordSchema,
  revocationSchema,
  signingKeySchema,
  usernameKey,
  userRecordSchema,
  type PoolState,
  type SigningKeyRecord,
} from './state';

export interface Persistence {
  readonly state: PoolState;
  /** The stored signing key, or the one `create` makes and stores now. */
  signingKey(create: () => SigningKeyRecord): SigningKeyRecord;
  /** Writes what changed since the last save; resolves once it is on disk. */
  save(): Promise<void>;
  /** Waits for writes in flight. */
  flush(): Promise<void>;
}

const FILES = {
  users: 'users.json',
  groups: 'groups.json',
  refreshTokens: 'refresh-tokens.json',
  revocations: 'revocations.json',
  signingKey: 'signing-key.json',
} as const;

const fileOf = <T extends z.ZodType>(item: T) => z.object({ version: z.literal(1), items: z.array(item) });

export const createPersistence = (option: PersistenceOption): Persistence =>
  option.kind === 'memory' ? memoryPersistence() : directoryPersistence(option.path);

const memoryPersistence = (): Persistence => {
  let key: SigningKeyRecord | undefined;
  return {
    state: emptyState(),
    signingKey: (create) => (key ??= create()),
    save: () => Promise.resolve(),
    flush: () => Promise.resolve(),
  };
};

const directoryPersistence = (dir: string): Persistence => {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  /** Content on disk per file, so a save rewrites only the files that changed (or are missing). */
  const written = new Map<string, string>();
  const state = loadState(dir, written);
  let chain: Promise<void> = Promise.resolve();

  const writeChanged = async (): Promise<void> => {
    for (const [file, content] of Object.entries(serialize(state))) {
      if (written.get(file) === content) continue;
      await writeAtomic(join(dir, file), content);
      written.set(file, content);
    }
  };

  return {
    state,
    signingKey: (create) => {
      const path = join(dir, FILES.signingKey);
      const existing = readText(path);
      if (existing !== undefined) return parseFile(path, signingKeySchema, parseJson(path, existing));
      const key = create();
      writeAtomicSync(path, JSON.stringify(key, null, 2));
      return key;
    },
    save: () => {
      // Serialised so two saves never race on the same temporary file order; each snapshot is taken
      // when its turn comes, so a burst of mutations costs at most one extra write.
      const next = chain.then(writeChanged);
      chain = next.catch(() => undefined);
      return next;
    },
    flush: () => chain,
  };
};

const serialize = (state: PoolState): Record<string, string> => {
  const file = (items: unknown[]) => JSON.stringify({ version: 1, items }, null, 2);
  return {
    [FILES.users]: file([...state.users.values()]),
    [FILES.groups]: file([...state.groups.values()]),
    [FILES.refreshTokens]: file([...state.refreshTokens.values()]),
    [FILES.revocations]: file([...state.revocations.values()]),
  };
};

const loadState = (dir: string, onDisk: Map<string, string>): PoolState => {
  const state = emptyState();
  const items = <T extends z.ZodType>(name: string, schema: T): z.output<T>[] => {
    const path = join(dir, name);
    const text = readText(path);
    if (text === undefined) return [];
    onDisk.set(name, text);
    return parseFile(path, fileOf(schema), parseJson(path, text)).items;
  };
  for (const user of items(FILES.users, userRecordSchema)) state.users.set(usernameKey(user.username), user);
  for (const group of items(FILES.groups, groupRecordSchema)) state.groups.set(group.name, group);
  for (const token of items(FILES.refreshTokens, refreshRecordSchema))
    state.refreshTokens.set(token.tokenHash, token);
  for (const revocation of items(FILES.revocations, revocationSchema)) {
    state.revocations.set(revocation.originJti, revocation);
  }
  return state;
};

const readText = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

const parseJson = (path: string, text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`Local Cognito state file ${path} is not valid JSON; delete the folder to start empty.`);
  }
};

const parseFile = <T extends z.ZodType>(path: string, schema: T, raw: unknown): z.output<T> => {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `Local Cognito state file ${path} has an unexpected shape; delete the folder to start empty.`,
    );
  }
  return parsed.data;
};

const tempPath = (path: string): string => `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;

/** Owner-only: the folder holds the signing key and token hashes. */
const FILE_MODE = 0o600;

const writeAtomic = async (path: string, content: string): Promise<void> => {
  const temp = tempPath(path);
  try {
    const handle = await open(temp, 'w', FILE_MODE);
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
};

const writeAtomicSync = (path: string, content: string): void => {
  const temp = tempPath(path);
  writeFileSync(temp, content, { mode: FILE_MODE, flush: true });
  renameSync(temp, path);
};
