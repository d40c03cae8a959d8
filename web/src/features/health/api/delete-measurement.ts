import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteResource } from '../../../lib/api-client';
import { measurementsQueryKey } from './get-measurements';

/** Only the owner's measurement; the answer is empty (204). Gone already (404) is done too. */
export const deleteMeasurement = (measurementId: string): Promise<void> =>
  deleteResource(`/v1/measurements/${encodeURIComponent(measurementId)}`);

export const useDeleteMeasurement = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMeasurement,
    // Either way: a refusal may mean it changed meanwhile, and every view should show what is there.
    onSettled: () => queryClient.invalidateQueries({ queryKey: measurementsQueryKey }),
  });
};
