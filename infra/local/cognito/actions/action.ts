/** The shape every API action has, so the router can treat them alike. */
import type { Pool } from '../pool';

export interface ActionRequest {
  readonly body: Readonly<Record<string, unknown>>;
  /** For the triggers' `callerContext.awsSdkVersion`, read from the caller's user agent. */
  readonly awsSdkVersion: string;
}

export interface Action {
  /** Admin calls are SigV4-signed by the SDK; public calls (sign-in, own tokens) are not. */
  readonly signed: boolean;
  run(pool: Pool, request: ActionRequest): Promise<object>;
}

export const publicAction = (run: Action['run']): Action => ({ signed: false, run });
export const signedAction = (run: Action['run']): Action => ({ signed: true, run });
