import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GlucoseContext, MeasurementType, MeasurementUnit } from '../../../../../shared/health';
import {
  createMeasurementRequestSchema,
  measurementSchema,
  type Measurement,
} from '../../../../../shared/health-schemas';
import { apiRequest, readAgainIfSent, validateRequest } from '../../../lib/api-client';
import { idempotencyKeyFor } from '../../../lib/idempotency';
import { measurementsQueryKey } from './get-measurements';

/** What the person typed; the server converts to the stored unit. */
export interface CreateMeasurementInput {
  type: MeasurementType;
  value: number | { systolic: number; diastolic: number };
  enteredUnit: MeasurementUnit;
  takenAt: string;
  context?: GlucoseContext;
  note?: string;
}

/**
 * Checked with the schema the Lambda parses with, then sent as typed: the schema's output holds
 * the converted value, which is the server's job to compute and store.
 */
export const createMeasurement = (input: CreateMeasurementInput): Promise<Measurement> => {
  validateRequest(createMeasurementRequestSchema, input);
  return apiRequest('/v1/measurements', {
    method: 'POST',
    body: input,
    schema: measurementSchema,
    // The retry of SPEC section 9 sends the same key: a lost answer does not store the reading twice.
    idempotencyKey: idempotencyKeyFor(input),
  });
};

export const useCreateMeasurement = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMeasurement,
    // Failed after the request left too: a lost answer or a 5xx may come after the reading was stored.
    onSettled: (_measurement, error) =>
      readAgainIfSent(error, () => queryClient.invalidateQueries({ queryKey: measurementsQueryKey })),
  });
};
