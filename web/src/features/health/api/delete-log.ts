import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteResource } from '../../../lib/api-client';
import { logsQueryKey } from './get-logs';

/** Only the owner's log; the answer is empty (204). Gone already (404) is done too. */
export const deleteLog = (logId: string): Promise<void> =>
  deleteResource(`/v1/logs/${encodeURIComponent(logId)}`);

export const useDeleteLog = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLog,
    onSettled: () => queryClient.invalidateQueries({ queryKey: logsQueryKey }),
  });
};
