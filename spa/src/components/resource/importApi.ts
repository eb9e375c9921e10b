import { apiError, isApiError, MSG_NETWORK } from '@/lib/api/errors';
import { buildHeaders, handleResponse } from '@/lib/api/http';
import type { Schemas } from '@/lib/api/types';
import { areaForPath, handleUnauthorized } from '@/lib/api/unauthorized';
import { buildApiUrl } from '@/lib/api/url';

/** The state of a CSV import (the server's DataImport): preview, progress and result. */
export type DataImport = Schemas['DataImportOut'];
export type ImportRowError = Schemas['ImportRowError'];

/** Statuses in which the worker is still busy: poll GET `${path}/{id}`. */
export const RUNNING_STATUSES = ['validating', 'importing'] as const;

export function isRunning(imp: Pick<DataImport, 'status'> | null | undefined): boolean {
  return !!imp && (RUNNING_STATUSES as readonly string[]).includes(imp.status);
}

/**
 * One import call. 200 and 201 go through the shared rules; 202 (the worker took the file) is an
 * answer too. A 401 ends the session like every data call.
 */
async function importCall(path: string, method: 'GET' | 'POST', body?: FormData): Promise<DataImport> {
  let response: Response;
  try {
    response = await globalThis.fetch(buildApiUrl(path), { method, headers: buildHeaders(body), body });
  } catch {
    throw apiError({ status: 'FETCH_ERROR', message: MSG_NETWORK });
  }
  try {
    if (response.status === 202) {
      const env = (await response.json()) as { data?: DataImport };
      if (env?.data) return env.data;
    }
    const result = await handleResponse<{ data: DataImport }>(response);
    return result.message.data;
  } catch (err) {
    if (isApiError(err) && err.status === 401) handleUnauthorized(err.message, areaForPath(path));
    throw err;
  }
}

export interface ImportApi {
  upload: (file: File) => Promise<DataImport>;
  status: (importId: number) => Promise<DataImport>;
  confirm: (importId: number) => Promise<DataImport>;
  templateUrl: string;
}

/** The import endpoints under a list path, e.g. '/customer/customers/import'. */
export function importApi(importPath: string): ImportApi {
  return {
    upload: (file) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return importCall(importPath, 'POST', form);
    },
    status: (id) => importCall(`${importPath}/${id}`, 'GET'),
    confirm: (id) => importCall(`${importPath}/${id}/confirm`, 'POST'),
    templateUrl: `${importPath}/template`,
  };
}

/** The rows' errors of a failed confirm (422 `{detail, errors}`), when the answer has them. */
export function rowErrorsOf(err: unknown): ImportRowError[] | null {
  if (!isApiError(err) || !err.body || typeof err.body !== 'object') return null;
  const errors = (err.body as { errors?: unknown }).errors;
  return Array.isArray(errors) ? (errors as ImportRowError[]) : null;
}
