import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createLogRequestSchema,
  logSchema,
  type HealthLog,
  type NewLog,
} from '../../../../../shared/health-schemas';
import { apiRequest, readAgainIfSent, validateRequest } from '../../../lib/api-client';
import { idempotencyKeyFor } from '../../../lib/idempotency';
import { logsQueryKey } from './get-logs';

/** A meal, an activity or a sleep, checked with the schema the Lambda parses with. */
export const createLog = (input: NewLog): Promise<HealthLog> => {
  validateRequest(createLogRequestSchema, input);
  return apiRequest('/v1/logs', {
    method: 'POST',
    body: input,
    schema: logSchema,
    // As for a measurement: the retry does not store the log twice.
    idempotencyKey: idempotencyKeyFor(input),
  });
};

export const useCreateLog = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLog,
    // As for a measurement: a lost answer or a 5xx may come after the log was stored.
    onSettled: (_log, error) =>
      readAgainIfSent(error, () => queryClient.invalidateQueries({ queryKey: logsQueryKey })),
  });
};
