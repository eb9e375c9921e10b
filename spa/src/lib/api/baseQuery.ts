import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import { tokenState } from '../auth/token';
import { type ApiError, MSG_SESSION_EXPIRED, isApiError } from './errors';
import { apiRequest } from './http';
import { sessionHandlers } from './session';
import { type UnauthorizedArea, areaForPath, handleUnauthorized, isSessionlessPath } from './unauthorized';
import type { QueryValue } from './url';

export interface ApiArgs {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  params?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ApiExtraOptions {
  /** Overrides the unauthorized area picked from the path (spec section 8). */
  area?: UnauthorizedArea;
  /** Skip the unauthorized side effects (the caller handles them). */
  silentUnauthorized?: boolean;
}

/**
 * The one RTK Query base query. Bearer token from local storage, JSON, http→https for non-local
 * hosts and the trailing-slash rule (lib/api/url.ts), spec section 8's result and error handling
 * (lib/api/http.ts). The query's data is the `message` of {message: data}: the server's envelope
 * {status_code, message, data}, typed by the client generated from spa/openapi.json.
 */
export const baseQuery: BaseQueryFn<string | ApiArgs, unknown, ApiError, ApiExtraOptions> = async (
  args,
  api,
  extraOptions,
) => {
  const { url, method = 'GET', params, body, headers } = typeof args === 'string' ? ({ url: args } as ApiArgs) : args;
  const sessionless = isSessionlessPath(url);

  // Spec section 4: an expired or undecodable token logs the user out instead of calling.
  const state = tokenState();
  if (!sessionless && (state === 'expired' || state === 'invalid')) {
    sessionHandlers().logout();
    return { error: { status: 401, code: 'UNAUTHORIZED', message: MSG_SESSION_EXPIRED } };
  }

  try {
    const result = await apiRequest(url, { method, params, body, headers, signal: api.signal });
    return { data: result.message };
  } catch (err) {
    const error: ApiError = isApiError(err)
      ? err
      : { status: 'FETCH_ERROR', message: (err as Error)?.message || 'Request failed' };
    // 401 means the session is gone. A 403 is a permission the user lacks: the error carries
    // code UNAUTHORIZED and its sentence, but the session stays (see docs/spa.md).
    if (error.code === 'UNAUTHORIZED' && error.status === 401 && !sessionless && !extraOptions?.silentUnauthorized) {
      handleUnauthorized(error.message, extraOptions?.area ?? areaForPath(url));
    }
    return { error };
  }
};
