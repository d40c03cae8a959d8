/**
 * POST /v1/logs: logs one of the caller's meals, activities or nights of sleep. Sent again with the same
 * `Idempotency-Key`, it answers the log the first one stored; the same key with another body is 422, and
 * nothing is stored (ADR 061).
 */
import { createLogRequestSchema } from '../../../shared/health-schemas';
import { createLog, ownerOf } from '../../common/health-records';
import { created, httpHandler, idempotencyKeyOf } from '../../common/http';

export const handler = httpHandler(
  { auth: 'user', body: createLogRequestSchema },
  async ({ body, caller, event }) => created(await createLog(ownerOf(caller), body, idempotencyKeyOf(event))),
);
