import { getToken } from '../auth/token';
import {
  apiError,
  MSG_NETWORK,
  MSG_PARSE,
  MSG_UNAUTHORIZED,
  MSG_UNEXPECTED,
  fieldErrorsOf,
  messageOf,
  withReference,
} from './errors';
import { buildApiUrl, type QueryValue } from './url';

/** A successful answer as spec section 8 puts it: a 200 or 201 is returned as {message: data}. */
export interface ApiResult<T = unknown> {
  message: T;
}

/**
 * Turns a fetch Response into {message: body} or throws an ApiError (spec section 8):
 * unparsable JSON → 'Failed to parse API response'; 200/201 → {message: body};
 * 401/403 → code UNAUTHORIZED with the body's message or 'Unauthorized'; other non-OK → the
 * body's sentence or the status text; any other shape → 'Unexpected API response format'.
 */
export async function handleResponse<T = unknown>(response: Response): Promise<ApiResult<T>> {
  let body: unknown;
  const text = await response.text();
  try {
    body = JSON.parse(text);
  } catch {
    if (!response.ok && text.trim() === '') {
      body = undefined;
    } else {
      throw apiError({ status: 'PARSE_ERROR', message: MSG_PARSE });
    }
  }
  if (response.status === 200 || response.status === 201) {
    if (body === null || typeof body !== 'object') {
      throw apiError({ status: 'FORMAT_ERROR', message: MSG_UNEXPECTED, body });
    }
    return { message: body as T };
  }
  if (response.status === 401 || response.status === 403) {
    throw apiError({
      status: response.status,
      code: 'UNAUTHORIZED',
      message: messageOf(body, MSG_UNAUTHORIZED),
      body,
    });
  }
  if (!response.ok) {
    const statusText = response.statusText || `Request failed with status ${response.status}`;
    const requestId = response.headers?.get('X-Request-ID') ?? undefined;
    throw apiError({
      status: response.status,
      message: withReference(messageOf(body, statusText), response.status, requestId),
      fieldErrors: response.status === 422 || response.status === 400 ? fieldErrorsOf(body) : undefined,
      body: body ?? statusText,
      requestId,
    });
  }
  throw apiError({ status: 'FORMAT_ERROR', message: MSG_UNEXPECTED, body });
}

export interface RequestOptions {
  method?: string;
  params?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Headers every call carries: the bearer token when one is stored, JSON content type. */
export function buildHeaders(body: unknown, extra?: Record<string, string>): Headers {
  const headers = new Headers(extra);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !isForm && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return headers;
}

export function encodeBody(body: unknown): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (typeof FormData !== 'undefined' && body instanceof FormData) return body;
  return JSON.stringify(body);
}

/** One raw call through the shared rules; no unauthorized side effects (see baseQuery for those). */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<ApiResult<T>> {
  const url = buildApiUrl(path, options.params);
  let response: Response;
  try {
    response = await globalThis.fetch(url, {
      method: options.method ?? 'GET',
      headers: buildHeaders(options.body, options.headers),
      body: encodeBody(options.body),
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw apiError({ status: 'FETCH_ERROR', message: MSG_NETWORK });
  }
  return handleResponse<T>(response);
}

/** A file download: GET with an Accept header for PDF, answered as a Blob. */
export async function apiDownload(path: string, params?: Record<string, QueryValue>, accept = 'application/pdf'): Promise<Blob> {
  const url = buildApiUrl(path, params);
  const response = await globalThis.fetch(url, { headers: buildHeaders(undefined, { Accept: accept }) });
  if (!response.ok) {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    const unauthorized = response.status === 401 || response.status === 403;
    const requestId = response.headers?.get('X-Request-ID') ?? undefined;
    throw apiError({
      status: response.status,
      code: unauthorized ? 'UNAUTHORIZED' : undefined,
      message: withReference(
        messageOf(body, unauthorized ? MSG_UNAUTHORIZED : response.statusText || 'Download failed'),
        response.status,
        requestId,
      ),
      body,
      requestId,
    });
  }
  return response.blob();
}
