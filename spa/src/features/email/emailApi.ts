import { api, unwrap } from '@/lib/api/api';
import type { ApiError } from '@/lib/api/errors';
import type { ApiQuery, PageItem } from '@/lib/api/types';

export type SentEmail = PageItem<'/api/email'>;
export type EmailQuery = ApiQuery<'/api/email', 'get'>;

export const MSG_LIST = 'Failed to fetch email list';
export const MSG_HISTORY = 'Failed to fetch combined email history';
export const MSG_DETAILS = 'Failed to fetch email details';
/** The two categories the history merges (spec section 7). */
export const HISTORY_CATEGORIES = ['invoice', 'invoice_with_delivery_ticket'] as const;

const withTags = api.enhanceEndpoints({ addTagTypes: ['Email'] });

function failed(error: unknown, fallback: string): ApiError {
  const e = error as Partial<ApiError> | undefined;
  return { status: e?.status ?? 'FETCH_ERROR', message: e?.message || fallback, code: e?.code, body: e?.body };
}

/** Both categories' pages merged, newest first (`sent_at` descending; unsent ones on top). */
export function mergeHistory(lists: SentEmail[][]): SentEmail[] {
  const key = (e: SentEmail) => e.sent_at ?? '9999';
  return lists.flat().sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : b.id - a.id));
}

export const emailApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    emailHistory: build.query<SentEmail[], { parent_id?: number } | void>({
      async queryFn(arg, _api, _extra, baseQuery) {
        const lists: SentEmail[][] = [];
        for (const category of HISTORY_CATEGORIES) {
          const res = await baseQuery({
            url: '/email/',
            params: { sort_by: 'sent_at', order: 'desc', page: 1, size: 50, category, parent_id: arg?.parent_id },
          });
          if (res.error) return { error: failed(res.error, MSG_HISTORY) };
          lists.push(unwrap<{ items: SentEmail[] }>(res.data).items);
        }
        return { data: mergeHistory(lists) };
      },
      providesTags: ['Email'],
    }),
    emailList: build.query<{ items: SentEmail[]; total: number }, EmailQuery>({
      query: (params) => ({ url: '/email/', params }),
      transformResponse: (env) => unwrap<{ items: SentEmail[]; total: number }>(env),
      transformErrorResponse: (e) => failed(e, MSG_LIST),
      providesTags: ['Email'],
    }),
    emailDetail: build.query<SentEmail, number>({
      query: (id) => ({ url: `/email/${id}` }),
      transformResponse: (env) => unwrap<SentEmail>(env),
      transformErrorResponse: (e) => failed(e, MSG_DETAILS),
      providesTags: ['Email'],
    }),
  }),
});

export const { useEmailHistoryQuery, useEmailListQuery, useEmailDetailQuery } = emailApi;
