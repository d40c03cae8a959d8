import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { measurementsQueryKey } from './get-measurements';

/** Only the owner's measurement; the answer is empty (204). */
export const deleteMeasurement = (measurementId: string): Promise<void> =>
  apiRequest(`/v1/measurements/${encodeURIComponent(measurementId)}`, { method: 'DELETE' });

export const useDeleteMeasurement = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMeasurement,
    // Either way: a 404 means it is already gone, and every view should show that.
    onSettled: () => queryClient.invalidateQueries({ queryKey: measurementsQueryKey }),
  });
};
