import { useMutation } from '@tanstack/react-query';
import { downloadFromApi } from '../../../lib/download';

export type ExportFormat = 'json' | 'fhir';

/** Used when the answer names no file. */
export const EXPORT_FILE_NAMES: Record<ExportFormat, string> = {
  json: 'health-records.json',
  fhir: 'health-records.fhir.json',
};

/** Downloads everything the account holds; resolves with the saved file's name. */
export const exportRecords = (format: ExportFormat): Promise<string> =>
  downloadFromApi(`/v1/users/me/export?format=${format}`, EXPORT_FILE_NAMES[format]);

export const useExportRecords = () => useMutation({ mutationFn: exportRecords });
