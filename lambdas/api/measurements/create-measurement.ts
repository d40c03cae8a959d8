/**
 * POST /v1/measurements: logs one of the caller's readings. The shared schema checks the type, unit,
 * bounds and time, and converts the value to the stored unit; the owner is the verified caller. Sent
 * again with the same `Idempotency-Key`, it answers the reading the first one stored; the same key with
 * another body is 422, and nothing is stored (ADR 061).
 */
import { createMeasurementRequestSchema } from '../../../shared/health-schemas';
import { createMeasurement, ownerOf } from '../../common/health-records';
import { created, httpHandler, idempotencyKeyOf } from '../../common/http';

export const handler = httpHandler(
  { auth: 'user', body: createMeasurementRequestSchema },
  async ({ body, caller, event }) =>
    created(await createMeasurement(ownerOf(caller), body, idempotencyKeyOf(event))),
);
