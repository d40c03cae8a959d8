import { useMutation, useQueryClient } from '@tanstack/react-query';
import { downloadFromApi } from '../../../lib/download';
import { invalidateEvents } from '../../../lib/query-keys';

export type ExportFormat = 'json' | 'fhir';

/** Used when the answer names no file. */
export const EXPORT_FILE_NAMES: Record<ExportFormat, string> = {
  json: 'health-records.json',
  fhir: 'health-records.fhir.json',
};

/** Downloads everything the account holds; resolves with the saved file's name. */
export const exportRecords = (format: ExportFormat): Promise<string> =>
  downloadFromApi(`/v1/users/me/export?format=${format}`, EXPORT_FILE_NAMES[format]);

/** An export is a security event: 'Recent activity' (on the Profile page) is read again after one. */
export const useExportRecords = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: exportRecords,
    onSettled: () => invalidateEvents(queryClient),
  });
};
