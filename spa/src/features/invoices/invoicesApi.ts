import { createResourceApi, type StatusStyle } from '@/components/resource';
import { api, unwrap } from '@/lib/api/api';
import { isApiError, type ApiError } from '@/lib/api/errors';
import { apiDownload } from '@/lib/api/http';
import type { ApiBody, ApiData, ApiQuery, PageItem, components } from '@/lib/api/types';

export type InvoiceRow = PageItem<'/api/invoice'>;
export type Invoice = ApiData<'/api/invoice/{id}', 'get'>;
export type InvoiceCreated = ApiData<'/api/invoice/create', 'post'>;
export type InvoiceLine = Invoice['line_items'][number];
export type InvoiceEvent = Invoice['events'][number];
export type InvoicePayment = Invoice['payments'][number];
export type Payment = PageItem<'/api/invoice/payments'>;
export type PaymentCreate = ApiBody<'/api/invoice/payments', 'post'>;
export type PaymentQuery = ApiQuery<'/api/invoice/payments', 'get'>;
export type AllocationIn = NonNullable<PaymentCreate['allocations']>[number];
export type Statement = ApiData<'/api/invoice/customers/{id}/statement', 'get'>;
export type Aging = ApiData<'/api/invoice/aging', 'get'>;
export type AgingRow = Aging['rows'][number];
export type TaxSummary = ApiData<'/api/tax/invoices/taxes/{id}', 'get'>;
export type DocumentLogsQuery = ApiQuery<'/api/job-log/get-logs', 'get'>;
export type JobLogEntry = PageItem<'/api/job-log'>;
export type InvoiceDayJob = components['schemas']['InvoiceJobOut'];

// Spec section 8: the invoice messages.
export const MSG_CREATE = 'Failed to create/update invoice';
export const MSG_STATUS = 'Failed to update invoice status';
export const MSG_FETCH = 'Failed to fetch invoice';
export const MSG_FETCH_LIST = 'Failed to fetch invoices';
export const MSG_JOB_LOGS = 'Failed to fetch job logs';
export const MSG_ASSIGN = 'Assign not implemented';
export const MSG_ARCHIVE = 'Archive not implemented';

/** The list (with the resource kit: paging, search, sort, filters). */
export const invoicesListApi = createResourceApi<InvoiceRow, never, never>({
  key: 'invoice',
  tag: 'Invoice',
  listPath: '/invoice',
  itemPath: (id) => `/invoice/${id}`,
});

const tagged = api.enhanceEndpoints({ addTagTypes: ['Invoice', 'InvoicePayment', 'Aging', 'JobLog'] });
const ALL = [
  { type: 'Invoice' as const, id: 'LIST' },
  { type: 'InvoicePayment' as const, id: 'LIST' },
  { type: 'Aging' as const, id: 'LIST' },
];
const invoiceTags = (id: number) => [{ type: 'Invoice' as const, id }, ...ALL];
// A payment may touch any invoice of the customer: every invoice, the payments and the aging.
const MONEY = ['Invoice' as const, 'InvoicePayment' as const, 'Aging' as const];

function failed(error: unknown, fallback: string): ApiError {
  const e = error as Partial<ApiError> | undefined;
  return { status: e?.status ?? 'FETCH_ERROR', message: e?.message || fallback, code: e?.code, body: e?.body };
}

/** Spec section 7: a job-log answer counts only when its body says status_code 200. */
export function countsAsJobLogAnswer(body: unknown): boolean {
  return !!body && typeof body === 'object' && (body as { status_code?: unknown }).status_code === 200;
}

export const invoicesApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    invoice: build.query<Invoice, number>({
      query: (id) => ({ url: `/invoice/${id}` }),
      transformResponse: (env) => unwrap<Invoice>(env),
      transformErrorResponse: (e) => failed(e, MSG_FETCH),
      providesTags: (_r, _e, id) => [{ type: 'Invoice', id }],
    }),
    createInvoice: build.mutation<InvoiceCreated, number>({
      query: (salesOrderId) => ({ url: '/invoice/create', method: 'POST', params: { sales_order_id: salesOrderId } }),
      transformResponse: (env) => unwrap<InvoiceCreated>(env),
      transformErrorResponse: (e) => failed(e, MSG_CREATE),
      invalidatesTags: ALL,
    }),
    issueInvoice: build.mutation<Invoice, number>({
      query: (id) => ({ url: `/invoice/${id}/issue`, method: 'POST' }),
      transformResponse: (env) => unwrap<Invoice>(env),
      transformErrorResponse: (e) => failed(e, MSG_STATUS),
      invalidatesTags: (_r, _e, id) => invoiceTags(id),
    }),
    voidInvoice: build.mutation<Invoice, { id: number; reason: string }>({
      query: ({ id, reason }) => ({ url: `/invoice/${id}/void`, method: 'POST', params: { reason } }),
      transformResponse: (env) => unwrap<Invoice>(env),
      transformErrorResponse: (e) => failed(e, MSG_STATUS),
      invalidatesTags: (_r, _e, { id }) => invoiceTags(id),
    }),
    updateInvoice: build.mutation<Invoice, { id: number; body: ApiBody<'/api/invoice/{id}', 'put'> }>({
      query: ({ id, body }) => ({ url: `/invoice/${id}`, method: 'PUT', body }),
      transformResponse: (env) => unwrap<Invoice>(env),
      invalidatesTags: (_r, _e, { id }) => invoiceTags(id),
    }),
    invoiceTaxes: build.query<TaxSummary, number>({
      query: (id) => ({ url: `/tax/invoices/taxes/${id}` }),
      transformResponse: (env) => unwrap<TaxSummary>(env),
      providesTags: (_r, _e, id) => [{ type: 'Invoice', id }],
    }),
    invoiceJobLogs: build.query<JobLogEntry[], DocumentLogsQuery>({
      async queryFn(params, _api, _extra, baseQuery) {
        const res = await baseQuery({ url: '/job-log/get-logs', params });
        if (res.error) return { error: failed(res.error, MSG_JOB_LOGS) };
        if (!countsAsJobLogAnswer(res.data)) return { error: { status: 'FORMAT_ERROR', message: MSG_JOB_LOGS } };
        const data = unwrap<{ logs?: JobLogEntry[]; items?: JobLogEntry[] }>(res.data);
        return { data: data.logs ?? data.items ?? [] };
      },
      providesTags: ['JobLog'],
    }),
    invoiceDay: build.mutation<InvoiceDayJob, string>({
      query: (day) => ({ url: '/invoice/invoice-day', method: 'POST', body: { day } }),
      transformResponse: (env) => unwrap<InvoiceDayJob>(env),
      invalidatesTags: ['JobLog'],
    }),
    openInvoices: build.query<InvoiceRow[], number>({
      query: (customerId) => ({ url: '/invoice', params: { status: 'open', customer_id: customerId, size: 100, sort_by: 'due_date', order: 'asc' } }),
      transformResponse: (env) => unwrap<{ items: InvoiceRow[] }>(env).items,
      providesTags: [{ type: 'Invoice', id: 'LIST' }],
    }),
    payments: build.query<{ items: Payment[]; total: number }, PaymentQuery>({
      query: (params) => ({ url: '/invoice/payments', params }),
      transformResponse: (env) => unwrap<{ items: Payment[]; total: number }>(env),
      providesTags: [{ type: 'InvoicePayment', id: 'LIST' }],
    }),
    recordPayment: build.mutation<{ payment: Payment; message: string }, PaymentCreate>({
      query: (body) => ({ url: '/invoice/payments', method: 'POST', body }),
      transformResponse: (env) => ({ payment: unwrap<Payment>(env), message: (env as { message?: string }).message ?? 'Payment recorded' }),
      invalidatesTags: MONEY,
    }),
    allocatePayment: build.mutation<Payment, { id: number; allocations?: AllocationIn[] | null }>({
      query: ({ id, allocations }) => ({ url: `/invoice/payments/${id}/allocate`, method: 'POST', body: { allocations: allocations ?? null } }),
      transformResponse: (env) => unwrap<Payment>(env),
      invalidatesTags: MONEY,
    }),
    deletePayment: build.mutation<void, number>({
      query: (id) => ({ url: `/invoice/payments/${id}`, method: 'DELETE' }),
      invalidatesTags: MONEY,
    }),
    statement: build.query<Statement, { customerId: number; start?: string; end?: string }>({
      query: ({ customerId, start, end }) => ({ url: `/invoice/customers/${customerId}/statement`, params: { start: start || undefined, end: end || undefined } }),
      transformResponse: (env) => unwrap<Statement>(env),
      providesTags: ALL,
    }),
    aging: build.query<Aging, { as_of?: string; customer_id?: number }>({
      query: (params) => ({ url: '/invoice/aging', params }),
      transformResponse: (env) => unwrap<Aging>(env),
      providesTags: [{ type: 'Aging', id: 'LIST' }],
    }),
  }),
});

export const {
  useInvoiceQuery,
  useCreateInvoiceMutation,
  useIssueInvoiceMutation,
  useVoidInvoiceMutation,
  useUpdateInvoiceMutation,
  useInvoiceTaxesQuery,
  useInvoiceJobLogsQuery,
  useInvoiceDayMutation,
  useOpenInvoicesQuery,
  usePaymentsQuery,
  useRecordPaymentMutation,
  useAllocatePaymentMutation,
  useDeletePaymentMutation,
  useStatementQuery,
  useAgingQuery,
} = invoicesApi;

export const agingCsv = (params: { as_of?: string; customer_id?: number }) => apiDownload('/invoice/aging/export', params, 'text/csv');

export const INVOICE_STATUSES: Record<string, StatusStyle> = {
  draft: { label: 'Draft', color: 'default' },
  issued: { label: 'Issued', color: 'info' },
  partially_paid: { label: 'Partially paid', color: 'warning' },
  paid: { label: 'Paid', color: 'success' },
  void: { label: 'Void', color: 'error' },
  overdue: { label: 'Overdue', color: 'error' },
};

/** Spec section 8: the toast after create/update carries the counts. */
export function summaryToast(summary: { created: number; updated: number; removed: number }): string {
  return `Invoice saved: ${summary.updated} updated, ${summary.created} created, ${summary.removed} removed`;
}

export function errorText(e: unknown, fallback: string): string {
  if (isApiError(e)) return e.message || fallback;
  const m = (e as { message?: string } | undefined)?.message;
  return m || fallback;
}

export const money = (v: string | number | null | undefined) =>
  v === null || v === undefined || v === '' ? '—' : Number(v).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
export const qty = (v: string | number | null | undefined) =>
  v === null || v === undefined || v === '' ? '—' : Number(v).toLocaleString('en-US', { maximumFractionDigits: 3 });
export const today = () => new Date().toISOString().slice(0, 10);
