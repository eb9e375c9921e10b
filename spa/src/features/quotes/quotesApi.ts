import { api, unwrap } from '@/lib/api/api';
import type { ApiError } from '@/lib/api/errors';
import type { ApiBody, ApiData, PageItem } from '@/lib/api/types';

export type QuoteRequestRow = PageItem<'/api/price-quote/requests'>;
export type QuoteRequest = ApiData<'/api/price-quote/requests/{id}', 'get'>;
export type QuoteRequestCreate = ApiBody<'/api/price-quote/requests', 'post'>;
export type QuoteComparison = ApiData<'/api/price-quote/requests/{id}/comparison', 'get'>;
export type QuoteRecord = ApiBody<'/api/price-quote/requests/{id}/quotes', 'post'>;
export type QuoteLine = ApiData<'/api/price-quote/lines/{id}/accept', 'put'>;
export type ReplyDestination = ApiData<'/api/price-quote/reply-address', 'get'>;

export const MSG_REQUESTS = 'Failed to fetch quote requests';
export const MSG_REQUEST = 'Failed to fetch the quote request';
export const MSG_SEND = 'Failed to send the quote request';
export const MSG_ACCEPT = 'Failed to save buying price';
export const MSG_RECORD = 'Failed to record the quote';

function failed(error: unknown, fallback: string): ApiError {
  const e = error as Partial<ApiError> | undefined;
  return { status: e?.status ?? 'FETCH_ERROR', message: e?.message || fallback, code: e?.code, body: e?.body };
}

interface Envelope<T> {
  message: string;
  data: T;
}

const withTags = api.enhanceEndpoints({ addTagTypes: ['QuoteRequest', 'BuyingPrice'] });

export const quotesApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    quoteRequests: build.query<{ items: QuoteRequestRow[]; total: number }, { page: number; size: number }>({
      query: (params) => ({ url: '/price-quote/requests', params }),
      transformResponse: (env) => unwrap<{ items: QuoteRequestRow[]; total: number }>(env),
      transformErrorResponse: (e) => failed(e, MSG_REQUESTS),
      providesTags: [{ type: 'QuoteRequest', id: 'LIST' }],
    }),
    replyDestination: build.query<ReplyDestination, void>({
      query: () => ({ url: '/price-quote/reply-address' }),
      transformResponse: (env) => unwrap<ReplyDestination>(env),
      transformErrorResponse: (e) => failed(e, MSG_REQUEST),
    }),
    quoteRequest: build.query<QuoteRequest, number>({
      query: (id) => ({ url: `/price-quote/requests/${id}` }),
      transformResponse: (env) => unwrap<QuoteRequest>(env),
      transformErrorResponse: (e) => failed(e, MSG_REQUEST),
      providesTags: (_r, _e, id) => [{ type: 'QuoteRequest', id }],
    }),
    quoteComparison: build.query<QuoteComparison, number>({
      query: (id) => ({ url: `/price-quote/requests/${id}/comparison` }),
      transformResponse: (env) => unwrap<QuoteComparison>(env),
      transformErrorResponse: (e) => failed(e, MSG_REQUEST),
      providesTags: (_r, _e, id) => [{ type: 'QuoteRequest', id }],
    }),
    createQuoteRequest: build.mutation<Envelope<QuoteRequest>, QuoteRequestCreate>({
      query: (body) => ({ url: '/price-quote/requests', method: 'POST', body }),
      transformErrorResponse: (e) => failed(e, MSG_SEND),
      invalidatesTags: [{ type: 'QuoteRequest', id: 'LIST' }],
    }),
    recordQuote: build.mutation<Envelope<unknown>, { id: number; body: QuoteRecord }>({
      query: ({ id, body }) => ({ url: `/price-quote/requests/${id}/quotes`, method: 'POST', body }),
      transformErrorResponse: (e) => failed(e, MSG_RECORD),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'QuoteRequest', id }, { type: 'QuoteRequest', id: 'LIST' }],
    }),
    acceptQuoteLine: build.mutation<Envelope<QuoteLine>, { lineId: number; requestId: number }>({
      query: ({ lineId }) => ({ url: `/price-quote/lines/${lineId}/accept`, method: 'PUT' }),
      transformErrorResponse: (e) => failed(e, MSG_ACCEPT),
      invalidatesTags: (_r, _e, { requestId }) => [{ type: 'QuoteRequest', id: requestId }, 'BuyingPrice'],
    }),
  }),
});

export const {
  useQuoteRequestsQuery,
  useReplyDestinationQuery,
  useQuoteRequestQuery,
  useQuoteComparisonQuery,
  useCreateQuoteRequestMutation,
  useRecordQuoteMutation,
  useAcceptQuoteLineMutation,
} = quotesApi;

/** A gap to the rack as people read it: "+0.0120" above, "−0.0488" below, "—" without a rack. */
export function formatGap(gap: string | null | undefined): string {
  if (gap == null) return '—';
  const n = Number(gap);
  if (n === 0) return '±0.0000';
  return `${n > 0 ? '+' : '−'}${Math.abs(n).toFixed(4)}`;
}
