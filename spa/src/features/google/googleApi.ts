import { api, unwrap } from '@/lib/api/api';
import type { ApiError } from '@/lib/api/errors';
import type { ApiBody, ApiData } from '@/lib/api/types';

export type GoogleAuthentication = ApiData<'/api/google-authentication', 'get'>;
export type GoogleConnect = ApiData<'/api/google-authentication/connect', 'post'>;
export type GoogleCallbackBody = ApiBody<'/api/google-authentication/callback', 'post'>;

export const MSG_STATUS = 'Failed to fetch the Google connection';
export const MSG_CONNECT = 'Failed to connect the Google account';
export const MSG_DISCONNECT = 'Failed to disconnect the Google account';

interface Envelope<T> {
  message: string;
  data: T;
}

function failed(error: unknown, fallback: string): ApiError {
  const e = error as Partial<ApiError> | undefined;
  return { status: e?.status ?? 'FETCH_ERROR', message: e?.message || fallback, code: e?.code, body: e?.body };
}

const withTags = api.enhanceEndpoints({ addTagTypes: ['GoogleAuthentication'] });

export const googleApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    googleAuthentication: build.query<GoogleAuthentication, void>({
      query: () => ({ url: '/google-authentication' }),
      transformResponse: (env) => unwrap<GoogleAuthentication>(env),
      transformErrorResponse: (e) => failed(e, MSG_STATUS),
      providesTags: ['GoogleAuthentication'],
    }),
    googleConnect: build.mutation<GoogleConnect, void>({
      query: () => ({ url: '/google-authentication/connect', method: 'POST' }),
      transformResponse: (env) => unwrap<GoogleConnect>(env),
      transformErrorResponse: (e) => failed(e, MSG_CONNECT),
    }),
    googleCallback: build.mutation<Envelope<GoogleAuthentication>, GoogleCallbackBody>({
      query: (body) => ({ url: '/google-authentication/callback', method: 'POST', body }),
      transformErrorResponse: (e) => failed(e, MSG_CONNECT),
      invalidatesTags: ['GoogleAuthentication'],
    }),
    googleDisconnect: build.mutation<Envelope<GoogleAuthentication>, void>({
      query: () => ({ url: '/google-authentication/disconnect', method: 'POST' }),
      transformErrorResponse: (e) => failed(e, MSG_DISCONNECT),
      invalidatesTags: ['GoogleAuthentication'],
    }),
  }),
});

export const {
  useGoogleAuthenticationQuery,
  useGoogleConnectMutation,
  useGoogleCallbackMutation,
  useGoogleDisconnectMutation,
} = googleApi;

/** What Google put in the query string when it sent the browser back here (or null). */
export function callbackParams(search: string): { code: string; state: string } | { error: string } | null {
  const q = new URLSearchParams(search);
  const error = q.get('error');
  if (error) return { error: error === 'access_denied' ? 'Google access was not granted.' : `Google answered: ${error}` };
  const code = q.get('code');
  const state = q.get('state');
  return code && state ? { code, state } : null;
}
