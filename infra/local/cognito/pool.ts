/**
 * One user pool with one app client: configuration, state, signing key and sessions, shared by
 * every action. Actions mutate `state` synchronously and then `save()`, so concurrent requests
 * never see a half-applied change and an answer is only sent once the change is on disk.
 */
import { resolveConfig, type LocalCognitoOptions, type PoolConfig } from './config';
import { resourceNotFound } from './errors';
import { generateSigningKeyRecord, loadSigningKey, type SigningKey } from './jwt';
import { createPersistence } from './persistence';
import { SessionStore } from './sessions';
import type { PoolState } from './state';

export interface Pool {
  readonly config: PoolConfig;
  readonly state: PoolState;
  readonly key: SigningKey;
  readonly sessions: SessionStore;
  nowMs(): number;
  nowSeconds(): number;
  save(): Promise<void>;
  flush(): Promise<void>;
}

export const createPool = (options: LocalCognitoOptions): Pool => {
  const config = resolveConfig(options);
  const persistence = createPersistence(config.persistence);
  const nowMs = (): number => config.now();
  const key = loadSigningKey(persistence.signingKey(() => generateSigningKeyRecord(nowMs())));
  const { state } = persistence;

  let createdGroup = false;
  for (const name of config.groups) {
    if (state.groups.has(name)) continue;
    state.groups.set(name, { name, createdAt: nowMs(), modifiedAt: nowMs() });
    createdGroup = true;
  }
  if (createdGroup) {
    persistence
      .save()
      .catch((error: unknown) => config.logger.error('[local-cognito] could not save groups', error));
  }

  return {
    config,
    state,
    key,
    sessions: new SessionStore(nowMs),
    nowMs,
    nowSeconds: () => Math.floor(nowMs() / 1000),
    save: () => persistence.save(),
    flush: () => persistence.flush(),
  };
};

export const isClientOf = (pool: Pool, clientId: unknown): boolean =>
  clientId === pool.config.clientId || pool.config.additionalClientIds.includes(clientId as string);

export const requireClient = (pool: Pool, clientId: string): void => {
  if (!isClientOf(pool, clientId)) throw resourceNotFound(`User pool client ${clientId} does not exist.`);
};

export const requireUserPool = (pool: Pool, userPoolId: string): void => {
  if (userPoolId !== pool.config.userPoolId)
    throw resourceNotFound(`User pool ${userPoolId} does not exist.`);
};
