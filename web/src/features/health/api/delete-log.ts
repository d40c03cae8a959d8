import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { isAlreadyGone } from '../../../lib/api-error';
import { logsQueryKey } from './get-logs';

/** Only the owner's log; the answer is empty (204). Gone already (404) is done too. */
export const deleteLog = async (logId: string): Promise<void> => {
  try {
    await apiRequest(`/v1/logs/${encodeURIComponent(logId)}`, { method: 'DELETE' });
  } catch (error) {
    if (!isAlreadyGone(error)) throw error;
  }
};

export const useDeleteLog = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLog,
    onSettled: () => queryClient.invalidateQueries({ queryKey: logsQueryKey }),
  });
};
