import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { logsQueryKey } from './get-logs';

/** Only the owner's log; the answer is empty (204). */
export const deleteLog = (logId: string): Promise<void> =>
  apiRequest(`/v1/logs/${encodeURIComponent(logId)}`, { method: 'DELETE' });

export const useDeleteLog = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLog,
    onSettled: () => queryClient.invalidateQueries({ queryKey: logsQueryKey }),
  });
};
