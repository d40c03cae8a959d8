import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { isAlreadyGone } from '../../../lib/api-error';
import { measurementsQueryKey } from './get-measurements';

/** Only the owner's measurement; the answer is empty (204). Gone already (404) is done too. */
export const deleteMeasurement = async (measurementId: string): Promise<void> => {
  try {
    await apiRequest(`/v1/measurements/${encodeURIComponent(measurementId)}`, { method: 'DELETE' });
  } catch (error) {
    if (!isAlreadyGone(error)) throw error;
  }
};

export const useDeleteMeasurement = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMeasurement,
    // Either way: a refusal may mean it changed meanwhile, and every view should show what is there.
    onSettled: () => queryClient.invalidateQueries({ queryKey: measurementsQueryKey }),
  });
};
