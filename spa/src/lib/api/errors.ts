import { toText } from '@/lib/text';
/** The result and error shapes of spec section 8. */

export const MSG_PARSE = 'Failed to parse API response';
export const MSG_UNAUTHORIZED = 'Unauthorized';
export const MSG_UNEXPECTED = 'Unexpected API response format';
export const MSG_SESSION_EXPIRED = 'Session expired. Please log in again.';
export const MSG_NETWORK = 'The server could not be reached. Check your connection and try again.';

export type FieldErrors = Record<string, string>;

export interface ApiError {
  /** HTTP status, or a string for failures without one. */
  status: number | 'FETCH_ERROR' | 'PARSE_ERROR' | 'FORMAT_ERROR';
  /** 'UNAUTHORIZED' for 401 and 403 (spec section 8). */
  code?: 'UNAUTHORIZED';
  /** A sentence a person can read. */
  message: string;
  /** Field errors of a 422 answer, keyed by field name. */
  fieldErrors?: FieldErrors;
  /** The parsed body (or the status text) as the server sent it. */
  body?: unknown;
  /** The server's X-Request-ID of the answer: what support finds the request's log line and error by. */
  requestId?: string;
}

/** An ApiError to throw: the promise of every API call rejects with one (a plain object, kept in the store). */
export function apiError(error: ApiError): ApiError {
  return error;
}

export function isApiError(value: unknown): value is ApiError {
  return !!value && typeof value === 'object' && 'status' in value && 'message' in value;
}

function asText(value: unknown): string | null {
  if (typeof value === 'string' && value.trim()) return value;
  if (Array.isArray(value)) {
    const parts = (value as unknown[])
      .map((v) => (typeof v === 'string' ? v : v && typeof v === 'object' && 'msg' in v ? toText(v.msg) : null))
      .filter(Boolean);
    return parts.length ? parts.join('; ') : null;
  }
  return null;
}

/**
 * The sentence of a failed answer, with the request id appended when the server failed (5xx), so the
 * error toast shows a reference a user can quote: "Something went wrong… (reference 3f9c…)".
 */
export function withReference(message: string, status: number, requestId: string | null | undefined): string {
  if (!requestId || status < 500) return message;
  return `${message} (reference ${requestId})`;
}

/** The human sentence of an error body: detail, then message, then error. */
export function messageOf(body: unknown, fallback: string): string {
  if (typeof body === 'string' && body.trim()) return body;
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    return asText(b.detail) ?? asText(b.message) ?? asText(b.error) ?? fallback;
  }
  return fallback;
}

/**
 * Field errors from a 422 body. Accepts `errors` as a map {field: msg | [msg]} or as a list of
 * {loc: [..., field], msg} (django-ninja / pydantic), and a list under `detail` too.
 */
export function fieldErrorsOf(body: unknown): FieldErrors | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const source = b.errors ?? (Array.isArray(b.detail) ? b.detail : undefined);
  const out: FieldErrors = {};
  if (Array.isArray(source)) {
    for (const item of source) {
      if (!item || typeof item !== 'object') continue;
      const it = item as Record<string, unknown>;
      const loc: unknown[] = Array.isArray(it.loc) ? (it.loc as unknown[]) : typeof it.field === 'string' ? [it.field] : [];
      const field = [...loc].reverse().find((p) => typeof p === 'string' && !['body', 'query', 'path', 'payload', 'data'].includes(p));
      const msg = typeof it.msg === 'string' ? it.msg : typeof it.message === 'string' ? it.message : null;
      if (typeof field === 'string' && msg && !out[field]) out[field] = msg;
    }
  } else if (source && typeof source === 'object') {
    for (const [field, value] of Object.entries(source as Record<string, unknown>)) {
      const msg = Array.isArray(value) ? value.find((v) => typeof v === 'string') : value;
      if (typeof msg === 'string') out[field] = msg;
    }
  }
  return Object.keys(out).length ? out : undefined;
}
