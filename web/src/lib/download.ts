/**
 * Downloads a file the API answers as an attachment. `apiRequest` speaks JSON only; this fetches
 * with the same bearer token and base URL, then hands the body to the browser as a file through
 * an object URL and an `<a download>` (no new window, nothing inline, so the CSP stays strict).
 */
import { MESSAGES } from '../../../shared/messages';
import { getWebConfig } from '../config/web-config';
import { endsSession, errorText, fetchAnswer } from './api-client';
import { ApiError } from './api-error';
import { loadAuth } from './auth/load-auth';
import { reportSessionEnded } from './auth/session-ended';

/** Long enough for every browser to start reading the blob before the URL is revoked. */
const REVOKE_AFTER_MS = 10_000;

/** A name without folders or control characters, so it can only name a file in Downloads. */
const safeName = (name: string): string | undefined => {
  // eslint-disable-next-line no-control-regex
  const cleaned = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : undefined;
};

/** The file name of a Content-Disposition header (`filename*` of RFC 6266 first), if it has one. */
export const fileNameFromDisposition = (header: string | null): string | undefined => {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)?.[1];
  if (extended) {
    try {
      const name = safeName(decodeURIComponent(extended.trim()));
      if (name) return name;
    } catch {
      // malformed percent-encoding: fall back to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(header);
  return safeName((plain?.[1] ?? plain?.[2] ?? '').trim());
};

/** Hands `blob` to the browser as a download called `name`. */
export const saveBlob = (blob: Blob, name: string): void => {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
};

/**
 * GETs `path` with the id token and saves the answer as a file, named by the server's
 * Content-Disposition or `fallbackName`. Resolves with the name used; errors read like `apiRequest`'s.
 */
export const downloadFromApi = async (path: string, fallbackName: string): Promise<string> => {
  const token = await (await loadAuth()).getIdToken();
  if (!token) {
    // Signed out in another tab: this one is signed out too (as in `apiRequest`).
    reportSessionEnded();
    throw new ApiError(401, MESSAGES.noIdToken);
  }
  const response = await fetchAnswer(`${getWebConfig().apiBaseUrl}${path}`, {
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
  });
  if (!response.ok) {
    const message = await errorText(response);
    if (endsSession(response.status, message)) reportSessionEnded();
    throw new ApiError(response.status, message);
  }
  const name = fileNameFromDisposition(response.headers.get('Content-Disposition')) ?? fallbackName;
  saveBlob(await response.blob(), name);
  return name;
};
