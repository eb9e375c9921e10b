import { createResourceApi, type StatusStyle } from '@/components/resource';
import { api, unwrap } from '@/lib/api/api';
import { isApiError } from '@/lib/api/errors';
import type { ApiBody, ApiData, ApiQuery, PageItem } from '@/lib/api/types';

export type PoRow = PageItem<'/api/purchase-order'>;
export type Po = ApiData<'/api/purchase-order/{id}', 'get'>;
export type PoCreate = ApiBody<'/api/purchase-order', 'post'>;
export type PoUpdate = ApiBody<'/api/purchase-order/{id}', 'put'>;
export type PoLine = Po['lines'][number];
export type ReceiptBody = ApiBody<'/api/purchase-order/{id}/receipts', 'post'>;
export type DefaultCost = ApiData<'/api/purchase-order/default-cost', 'get'>;
export type DefaultCostQuery = ApiQuery<'/api/purchase-order/default-cost', 'get'>;
export type PoTaxes = ApiData<'/api/tax/purchase-orders/taxes/{id}', 'get'>;
export type BillRow = PageItem<'/api/bill'>;
export type Bill = ApiData<'/api/bill/{id}', 'get'>;
export type BillCreate = ApiBody<'/api/bill', 'post'>;
export type BillUpdate = ApiBody<'/api/bill/{id}', 'put'>;
export type MatchLine = Bill['match']['lines'][number];
export type Tolerances = ApiData<'/api/bill/match-settings', 'get'>;
export type JobLogEntry = PageItem<'/api/job-log'>;

const POS = '/purchase-order';
const BILLS = '/bill';

export const poListApi = createResourceApi<PoRow, PoCreate, PoUpdate>({
  key: 'purchaseOrder',
  tag: 'PurchaseOrder',
  listPath: POS,
  itemPath: (id) => `${POS}/${id}`,
  invalidates: ['Bill'],
});

export const billListApi = createResourceApi<BillRow, BillCreate, BillUpdate>({
  key: 'bill',
  tag: 'Bill',
  listPath: BILLS,
  itemPath: (id) => `${BILLS}/${id}`,
  invalidates: ['PurchaseOrder'],
});

const tagged = api.enhanceEndpoints({ addTagTypes: ['PurchaseOrder', 'Bill'] });
const ALL = [
  { type: 'PurchaseOrder' as const, id: 'LIST' },
  { type: 'Bill' as const, id: 'LIST' },
];
const poTags = (id: number) => [{ type: 'PurchaseOrder' as const, id }, ...ALL];
const billTags = (id: number) => [{ type: 'Bill' as const, id }, ...ALL, { type: 'PurchaseOrder' as const, id: 'ANY' }];

export const MSG_JOB_LOGS = 'Failed to fetch job logs';

export const purchasingApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    purchaseOrder: build.query<Po, number>({
      query: (id) => ({ url: `${POS}/${id}` }),
      transformResponse: (env) => unwrap<Po>(env),
      providesTags: (_r, _e, id) => [{ type: 'PurchaseOrder', id }, { type: 'PurchaseOrder', id: 'ANY' }],
    }),
    createPurchaseOrder: build.mutation<Po, PoCreate>({
      query: (body) => ({ url: POS, method: 'POST', body }),
      transformResponse: (env) => unwrap<Po>(env),
      invalidatesTags: ALL,
    }),
    updatePurchaseOrder: build.mutation<Po, { id: number; body: PoUpdate }>({
      query: ({ id, body }) => ({ url: `${POS}/${id}`, method: 'PUT', body }),
      transformResponse: (env) => unwrap<Po>(env),
      invalidatesTags: (_r, _e, { id }) => poTags(id),
    }),
    poAction: build.mutation<Po, { id: number; action: string; reason?: string }>({
      query: ({ id, action, reason }) => ({ url: `${POS}/${id}/${action}`, method: 'POST', body: { reason: reason ?? '' } }),
      transformResponse: (env) => unwrap<Po>(env),
      invalidatesTags: (_r, _e, { id }) => poTags(id),
    }),
    addReceipt: build.mutation<Po, { id: number; body: ReceiptBody }>({
      query: ({ id, body }) => ({ url: `${POS}/${id}/receipts`, method: 'POST', body }),
      transformResponse: (env) => unwrap<Po>(env),
      invalidatesTags: (_r, _e, { id }) => poTags(id),
    }),
    removeReceipt: build.mutation<Po, { id: number; receiptId: number }>({
      query: ({ id, receiptId }) => ({ url: `${POS}/${id}/receipts/${receiptId}`, method: 'DELETE' }),
      transformResponse: (env) => unwrap<Po>(env),
      invalidatesTags: (_r, _e, { id }) => poTags(id),
    }),
    defaultCost: build.query<DefaultCost, DefaultCostQuery>({
      query: (params) => ({ url: `${POS}/default-cost`, params }),
      transformResponse: (env) => unwrap<DefaultCost>(env),
    }),
    poTaxes: build.query<PoTaxes, number>({
      query: (id) => ({ url: `/tax/purchase-orders/taxes/${id}` }),
      transformResponse: (env) => unwrap<PoTaxes>(env),
      providesTags: (_r, _e, id) => [{ type: 'PurchaseOrder', id }],
    }),
    bill: build.query<Bill, number>({
      query: (id) => ({ url: `${BILLS}/${id}` }),
      transformResponse: (env) => unwrap<Bill>(env),
      providesTags: (_r, _e, id) => [{ type: 'Bill', id }],
    }),
    createBill: build.mutation<Bill, BillCreate>({
      query: (body) => ({ url: BILLS, method: 'POST', body }),
      transformResponse: (env) => unwrap<Bill>(env),
      invalidatesTags: [...ALL, { type: 'PurchaseOrder' as const, id: 'ANY' }],
    }),
    updateBill: build.mutation<Bill, { id: number; body: BillUpdate }>({
      query: ({ id, body }) => ({ url: `${BILLS}/${id}`, method: 'PUT', body }),
      transformResponse: (env) => unwrap<Bill>(env),
      invalidatesTags: (_r, _e, { id }) => billTags(id),
    }),
    billAction: build.mutation<Bill, { id: number; action: string; override?: boolean; reason?: string }>({
      query: ({ id, action, override, reason }) => ({
        url: `${BILLS}/${id}/${action}`,
        method: 'POST',
        body: action === 'approve' ? { override: !!override, reason: reason ?? '' } : action === 'void' ? { reason: reason ?? '' } : {},
      }),
      transformResponse: (env) => unwrap<Bill>(env),
      invalidatesTags: (_r, _e, { id }) => billTags(id),
    }),
    tolerances: build.query<Tolerances, void>({
      query: () => ({ url: `${BILLS}/match-settings` }),
      transformResponse: (env) => unwrap<Tolerances>(env),
    }),
    openPurchaseOrders: build.query<PoRow[], number>({
      query: (supplierId) => ({ url: POS, params: { supplier_id: supplierId, status: 'ordered,received,billed', size: 100 } }),
      transformResponse: (env) => unwrap<{ items: PoRow[] }>(env).items,
      providesTags: [{ type: 'PurchaseOrder', id: 'LIST' }],
    }),
    billJobLogs: build.query<JobLogEntry[], number>({
      async queryFn(billId, _api, _extra, baseQuery) {
        const res = await baseQuery({ url: '/job-log/get-logs', params: { bill_id: billId } });
        const body = res.data as { status_code?: number } | undefined;
        // Spec section 7: a job-log answer counts only with status_code 200.
        if (res.error || !body || body.status_code !== 200) return { error: { status: 'FORMAT_ERROR', message: MSG_JOB_LOGS } };
        const data = unwrap<{ logs?: JobLogEntry[]; items?: JobLogEntry[] }>(res.data);
        return { data: data.logs ?? data.items ?? [] };
      },
    }),
  }),
});

export const {
  usePurchaseOrderQuery,
  useCreatePurchaseOrderMutation,
  useUpdatePurchaseOrderMutation,
  usePoActionMutation,
  useAddReceiptMutation,
  useRemoveReceiptMutation,
  useDefaultCostQuery,
  usePoTaxesQuery,
  useBillQuery,
  useCreateBillMutation,
  useUpdateBillMutation,
  useBillActionMutation,
  useTolerancesQuery,
  useOpenPurchaseOrdersQuery,
  useBillJobLogsQuery,
} = purchasingApi;

export const PO_STATUSES: Record<string, StatusStyle> = {
  draft: { label: 'Draft', color: 'default' },
  ordered: { label: 'Ordered', color: 'info' },
  received: { label: 'Received', color: 'primary' },
  billed: { label: 'Billed', color: 'secondary' },
  closed: { label: 'Closed', color: 'success' },
  cancelled: { label: 'Cancelled', color: 'error' },
};

export const BILL_STATUSES: Record<string, StatusStyle> = {
  draft: { label: 'Draft', color: 'default' },
  approved: { label: 'Approved', color: 'info' },
  paid: { label: 'Paid', color: 'success' },
  void: { label: 'Void', color: 'error' },
};

export const MATCH_STATUSES: Record<string, StatusStyle> = {
  no_po: { label: 'No PO', color: 'default' },
  matched: { label: 'Matched', color: 'success' },
  out_of_tolerance: { label: 'Out of tolerance', color: 'warning' },
};

export function errorText(e: unknown): string {
  return isApiError(e) ? e.message : 'Something went wrong.';
}

/** A refused approval: the bill is out of tolerance (409 with match_status). */
export function isMatchRefusal(e: unknown): boolean {
  if (!isApiError(e) || e.status !== 409 || !e.body || typeof e.body !== 'object') return false;
  return (e.body as Record<string, unknown>).match_status === 'out_of_tolerance';
}

export const money = (v: string | number | null | undefined) =>
  v === null || v === undefined || v === '' ? '—' : Number(v).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
export const qty = (v: string | number | null | undefined) =>
  v === null || v === undefined || v === '' ? '—' : Number(v).toLocaleString('en-US', { maximumFractionDigits: 3 });
export const price = (v: string | number | null | undefined) =>
  v === null || v === undefined || v === '' ? '—' : `$${Number(v).toFixed(4)}`;

/** A variance with its sign (+50, -10.5), or a dash. */
export function signed(v: string | number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || v === '') return '—';
  const n = Number(v);
  const text = n.toLocaleString('en-US', { maximumFractionDigits: digits });
  return n > 0 ? `+${text}` : text;
}
