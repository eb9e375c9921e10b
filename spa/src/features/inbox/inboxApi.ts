import { api, unwrap } from '@/lib/api/api';
import type { ApiError } from '@/lib/api/errors';
import type { ApiBody, ApiData, ApiQuery, PageItem } from '@/lib/api/types';

export type InboxRow = PageItem<'/api/email-agent'>;
export type InboxQuery = ApiQuery<'/api/email-agent', 'get'>;
export type InboxMessage = ApiData<'/api/email-agent/{id}', 'get'>;
export type Mailbox = ApiData<'/api/email-agent/mailbox', 'get'>;
export type MailboxBody = ApiBody<'/api/email-agent/mailbox', 'put'>;
export type MailboxTest = ApiData<'/api/email-agent/mailbox/test', 'post'>;
export type VerifyBody = ApiBody<'/api/email-agent/{id}/verify', 'put'>;
export type ReadAsBody = ApiBody<'/api/email-agent/{id}/read-as', 'put'>;
export type OpenQuoteRequest = PageItem<'/api/price-quote/requests'>;
export type BillReview = NonNullable<VerifyBody['bill']>;
export type BillReviewLine = NonNullable<BillReview['lines']>[number];

interface ParsedField {
  value?: unknown;
  confidence?: number;
}
interface ParsedLine {
  product?: ParsedField;
  description?: ParsedField;
  gross?: ParsedField;
  net?: ParsedField;
  unit_price?: ParsedField;
  amount?: ParsedField;
  bol?: ParsedField;
}
/** The parser's reading (bill_proposal.result): fields with values and confidences. */
export interface ParsedBillResult {
  fields?: Record<string, ParsedField | undefined>;
  lines?: ParsedLine[];
  taxes?: ParsedLine[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const dec = (v: unknown): string | null => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);

/** The draft bill as the parser read it: what the verify form starts from. */
export function reviewFromParse(result: ParsedBillResult | null | undefined, supplierFallback: number | null): BillReview {
  const f = result?.fields ?? {};
  const bols = f.bol_numbers?.value;
  return {
    supplier_id: num(f.supplier?.value) ?? supplierFallback,
    bill_number: str(f.bill_number?.value),
    bill_date: str(f.bill_date?.value) || null,
    due_date: str(f.due_date?.value) || null,
    terminal_id: num(f.terminal?.value),
    bol_numbers: Array.isArray(bols) ? bols.map(str) : [],
    total: dec(f.total?.value),
    lines: (result?.lines ?? []).map((ln) => ({
      product_id: num(ln.product?.value),
      description: str(ln.description?.value),
      gross: dec(ln.gross?.value),
      net: dec(ln.net?.value),
      unit_price: dec(ln.unit_price?.value),
      amount: dec(ln.amount?.value),
      bol: str(ln.bol?.value),
    })),
    taxes: (result?.taxes ?? []).flatMap((t) => {
      const amount = dec(t.amount?.value);
      return amount == null ? [] : [{ name: str(t.description?.value) || 'Tax', amount }];
    }),
    total_override_reason: '',
  };
}

/** Lines + taxes of a bill review, and whether they add up to the invoice's total (to the cent; no
 * total read: nothing to disagree with). The server refuses a bill that does not add up unless the
 * review says why (total_override_reason). */
export function reviewTotals(review: BillReview): { sum: number; total: number | null; agree: boolean } {
  const n = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v.replace(/[$,\s]/g, '')) || 0 : 0);
  const sum = (review.lines ?? []).reduce((a, l) => a + n(l.amount), 0) + (review.taxes ?? []).reduce((a, t) => a + n(t.amount), 0);
  const total = review.total == null || review.total === '' ? null : n(review.total);
  return { sum, total, agree: total == null || Math.round((sum - total) * 100) === 0 };
}

export const MSG_LIST = 'Failed to fetch email list';
export const MSG_DETAILS = 'Failed to fetch email details';
export const MSG_MAILBOX = 'Failed to fetch the mailbox settings';
export const MSG_SAVE = 'Failed to save the mailbox settings';
export const MSG_START = 'Failed to start the inbox agent';
export const MSG_VERIFY = 'Failed to verify the email';
export const MSG_READ_AS = 'Failed to read the email';

export const CLASSIFICATION_LABEL: Record<string, string> = {
  bill: 'Bill',
  price_quote_reply: 'Price quote reply',
  other: 'Other',
};

function failed(error: unknown, fallback: string): ApiError {
  const e = error as Partial<ApiError> | undefined;
  return { status: e?.status ?? 'FETCH_ERROR', message: e?.message || fallback, code: e?.code, body: e?.body };
}

interface Envelope<T> {
  message: string;
  data: T;
}

const withTags = api.enhanceEndpoints({ addTagTypes: ['Inbox', 'Mailbox', 'QuoteRequest'] });

export const inboxApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    inboxList: build.query<{ items: InboxRow[]; total: number }, InboxQuery>({
      query: (params) => ({ url: '/email-agent', params }),
      transformResponse: (env) => unwrap<{ items: InboxRow[]; total: number }>(env),
      transformErrorResponse: (e) => failed(e, MSG_LIST),
      providesTags: ['Inbox'],
    }),
    inboxMessage: build.query<InboxMessage, number>({
      query: (id) => ({ url: `/email-agent/${id}` }),
      transformResponse: (env) => unwrap<InboxMessage>(env),
      transformErrorResponse: (e) => failed(e, MSG_DETAILS),
      providesTags: (_r, _e, id) => [{ type: 'Inbox', id }],
    }),
    mailbox: build.query<Mailbox, void>({
      query: () => ({ url: '/email-agent/mailbox' }),
      transformResponse: (env) => unwrap<Mailbox>(env),
      transformErrorResponse: (e) => failed(e, MSG_MAILBOX),
      providesTags: ['Mailbox'],
    }),
    saveMailbox: build.mutation<Envelope<Mailbox>, MailboxBody>({
      query: (body) => ({ url: '/email-agent/mailbox', method: 'PUT', body }),
      transformErrorResponse: (e) => failed(e, MSG_SAVE),
      invalidatesTags: ['Mailbox'],
    }),
    testMailbox: build.mutation<Envelope<MailboxTest>, { settings?: MailboxBody | null }>({
      query: (body) => ({ url: '/email-agent/mailbox/test', method: 'POST', body }),
      transformErrorResponse: (e) => failed(e, MSG_SAVE),
    }),
    startAgent: build.mutation<Envelope<Mailbox>, void>({
      query: () => ({ url: '/email-agent/start', method: 'POST' }),
      transformErrorResponse: (e) => failed(e, MSG_START),
      invalidatesTags: ['Mailbox', 'Inbox'],
    }),
    stopAgent: build.mutation<Envelope<Mailbox>, void>({
      query: () => ({ url: '/email-agent/stop', method: 'POST' }),
      transformErrorResponse: (e) => failed(e, MSG_START),
      invalidatesTags: ['Mailbox'],
    }),
    readMessageAs: build.mutation<Envelope<InboxMessage>, { id: number; body: ReadAsBody }>({
      query: ({ id, body }) => ({ url: `/email-agent/${id}/read-as`, method: 'PUT', body }),
      transformErrorResponse: (e) => failed(e, MSG_READ_AS),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Inbox', id }],
    }),
    /** The quote requests an email may answer (for "Read as a quote reply"). */
    quoteRequestChoices: build.query<OpenQuoteRequest[], void>({
      query: () => ({ url: '/price-quote/requests', params: { page: 1, size: 100 } }),
      transformResponse: (env) => unwrap<{ items: OpenQuoteRequest[] }>(env).items,
      transformErrorResponse: (e) => failed(e, MSG_DETAILS),
      providesTags: [{ type: 'QuoteRequest', id: 'LIST' }],
    }),
    verifyMessage: build.mutation<Envelope<InboxMessage>, { id: number; body: VerifyBody }>({
      query: ({ id, body }) => ({ url: `/email-agent/${id}/verify`, method: 'PUT', body }),
      transformErrorResponse: (e) => failed(e, MSG_VERIFY),
      invalidatesTags: ['Inbox', 'QuoteRequest'],
    }),
  }),
});

export const {
  useInboxListQuery,
  useInboxMessageQuery,
  useMailboxQuery,
  useSaveMailboxMutation,
  useTestMailboxMutation,
  useStartAgentMutation,
  useStopAgentMutation,
  useVerifyMessageMutation,
  useReadMessageAsMutation,
  useQuoteRequestChoicesQuery,
} = inboxApi;

export type QuoteProposal = NonNullable<InboxMessage['quote_proposal']>;
export type ProposedLine = QuoteProposal['lines'][number];
