import { api, unwrap } from '@/lib/api/api';
import type { ApiBody, ApiData, ApiResponse } from '@/lib/api/types';

type Session = ApiData<'/api/login', 'post'>;

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Keeps the envelope: the sign-in page shows its message (spec section 7). */
    login: build.mutation<ApiResponse<'/api/login', 'post'>, ApiBody<'/api/login', 'post'>>({
      query: (body) => ({ url: '/login', method: 'POST', body }),
    }),
    /** "Sign in with Google": the URL of Google's sign-in page. */
    loginGoogleStart: build.mutation<ApiData<'/api/login/google/start', 'post'>, void>({
      query: () => ({ url: '/login/google/start', method: 'POST' }),
      transformResponse: (env) => unwrap<ApiData<'/api/login/google/start', 'post'>>(env),
    }),
    /** Google sent the browser back to /login?code&state: the same session as a password sign-in. */
    loginGoogle: build.mutation<ApiResponse<'/api/login/google', 'post'>, ApiBody<'/api/login/google', 'post'>>({
      query: (body) => ({ url: '/login/google', method: 'POST', body }),
    }),
    signup: build.mutation<Session, ApiBody<'/api/tenant', 'post'>>({
      query: (body) => ({ url: '/tenant', method: 'POST', body }),
      transformResponse: (env) => unwrap<Session>(env),
    }),
    requestPasswordReset: build.mutation<ApiResponse<'/api/password-reset/request', 'post'>, ApiBody<'/api/password-reset/request', 'post'>>({
      query: (body) => ({ url: '/password-reset/request', method: 'POST', body }),
    }),
    confirmPasswordReset: build.mutation<ApiResponse<'/api/password-reset/confirm', 'post'>, ApiBody<'/api/password-reset/confirm', 'post'>>({
      query: (body) => ({ url: '/password-reset/confirm', method: 'POST', body }),
    }),
  }),
});

export const {
  useLoginMutation,
  useSignupMutation,
  useRequestPasswordResetMutation,
  useConfirmPasswordResetMutation,
  useLoginGoogleStartMutation,
  useLoginGoogleMutation,
} = authApi;
