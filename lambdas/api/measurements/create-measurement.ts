/**
 * POST /v1/measurements: logs one of the caller's readings. The shared schema checks the type, unit,
 * bounds and time, and converts the value to the stored unit; the owner is the verified caller.
 */
import { createMeasurementRequestSchema } from '../../../shared/health-schemas';
import { createMeasurement } from '../../common/health-records';
import { created, httpHandler } from '../../common/http';

export const handler = httpHandler(
  { auth: 'user', body: createMeasurementRequestSchema },
  async ({ body, caller }) => created(await createMeasurement(caller.sub, body)),
);
