import { api, unwrap } from '@/lib/api/api';
import type { ApiError } from '@/lib/api/errors';
import type { ApiData, ApiQuery, PageItem } from '@/lib/api/types';

export type JobLogEntry = PageItem<'/api/job-log'>;
export type JobLogQuery = ApiQuery<'/api/job-log', 'get'>;
export type JobKind = ApiData<'/api/job-log/kinds', 'get'> extends Array<infer K> ? K : never;
export type DocumentLogsQuery = ApiQuery<'/api/job-log/get-logs', 'get'>;

export const MSG_JOB_LOGS = 'Failed to fetch job logs';
export const MSG_RETRY = 'The job could not be queued again.';
export const PAGE_SIZE = 20;

interface JobLogPage {
  items: JobLogEntry[];
  total: number;
  page: number;
  size: number;
  pages: number;
}

function failed(error: unknown, fallback: string): ApiError {
  const e = error as Partial<ApiError> | undefined;
  return { status: e?.status ?? 'FETCH_ERROR', message: e?.message || fallback, code: e?.code, body: e?.body };
}

/** Spec section 7: a job-log answer counts only when its body says status_code 200. */
export function countsAsJobLogAnswer(body: unknown): boolean {
  return !!body && typeof body === 'object' && (body as { status_code?: unknown }).status_code === 200;
}

const notCounted = (): ApiError => ({ status: 'FORMAT_ERROR', message: MSG_JOB_LOGS });

const withTags = api.enhanceEndpoints({ addTagTypes: ['JobLog'] });

export const jobsApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    jobLogs: build.query<JobLogPage, JobLogQuery>({
      async queryFn(params, _api, _extra, baseQuery) {
        const res = await baseQuery({ url: '/job-log/', params: { size: PAGE_SIZE, ...params } });
        if (res.error) return { error: failed(res.error, MSG_JOB_LOGS) };
        if (!countsAsJobLogAnswer(res.data)) return { error: notCounted() };
        return { data: unwrap<JobLogPage>(res.data) };
      },
      providesTags: ['JobLog'],
    }),
    documentJobLogs: build.query<JobLogEntry[], DocumentLogsQuery>({
      async queryFn(params, _api, _extra, baseQuery) {
        const res = await baseQuery({ url: '/job-log/get-logs', params });
        if (res.error) return { error: failed(res.error, MSG_JOB_LOGS) };
        if (!countsAsJobLogAnswer(res.data)) return { error: notCounted() };
        const data = unwrap<{ logs?: JobLogEntry[]; items?: JobLogEntry[] }>(res.data);
        return { data: data.logs ?? data.items ?? [] };
      },
      providesTags: ['JobLog'],
    }),
    jobKinds: build.query<JobKind[], void>({
      query: () => ({ url: '/job-log/kinds' }),
      transformResponse: (env) => unwrap<JobKind[]>(env),
      transformErrorResponse: (e) => failed(e, MSG_JOB_LOGS),
    }),
    retryJob: build.mutation<JobLogEntry, number>({
      query: (id) => ({ url: `/job-log/${id}/retry`, method: 'POST' }),
      transformResponse: (env) => unwrap<JobLogEntry>(env),
      transformErrorResponse: (e) => failed(e, MSG_RETRY),
      invalidatesTags: ['JobLog'],
    }),
  }),
});

export const { useJobLogsQuery, useDocumentJobLogsQuery, useJobKindsQuery, useRetryJobMutation } = jobsApi;
