import { createResourceApi, type StatusStyle } from '@/components/resource';
import { api, unwrap } from '@/lib/api/api';
import { isApiError } from '@/lib/api/errors';
import type { ApiBody, ApiData, ApiQuery, PageItem } from '@/lib/api/types';

export type OrderRow = PageItem<'/api/sales-order/sales-orders'>;
export type Order = ApiData<'/api/sales-order/sales-orders/{id}', 'get'>;
export type OrderCreate = ApiBody<'/api/sales-order/sales-orders', 'post'>;
export type OrderUpdate = ApiBody<'/api/sales-order/sales-orders/{id}', 'put'>;
export type OrderLine = Order['line_items'][number];
export type OrderFee = Order['fees'][number];
export type Move = OrderRow['allowed_actions'][number];
export type Board = ApiData<'/api/sales-order/sales-orders/board', 'get'>;
export type BoardQuery = ApiQuery<'/api/sales-order/sales-orders/board', 'get'>;
export type DispatchDay = ApiData<'/api/dispatch/day', 'get'>;
export type DispatchQuery = ApiQuery<'/api/dispatch/day', 'get'>;
export type Truck = DispatchDay['trucks'][number];
export type Stop = DispatchDay['unassigned'][number];
export type AssignBody = ApiBody<'/api/sales-order/sales-orders/{id}/assign', 'post'>;
export type DeliveredLine = ApiBody<'/api/sales-order/sales-orders/{id}/deliver-products', 'post'>['line_items'][number];
export type TaxSummary = ApiData<'/api/tax/sales-orders/taxes/{id}', 'get'>;
export type FeeItem = PageItem<'/api/fee'>;
export type InvoiceOfOrder = ApiData<'/api/invoice/create', 'post'>;
export type TankItem = PageItem<'/api/asset'>;
export type UnitItem = PageItem<'/api/company-asset'>;

const ORDERS = '/sales-order/sales-orders';

/** The list (with the resource kit: paging, search, sort, the filter operators). */
export const ordersApi = createResourceApi<OrderRow, OrderCreate, OrderUpdate>({
  key: 'salesOrder',
  tag: 'SalesOrder',
  listPath: ORDERS,
  itemPath: (id) => `${ORDERS}/${id}`,
});

const tagged = api.enhanceEndpoints({ addTagTypes: ['SalesOrder', 'Dispatch', 'Board'] });
const LIST = [{ type: 'SalesOrder' as const, id: 'LIST' }, { type: 'Dispatch' as const, id: 'LIST' }, { type: 'Board' as const, id: 'LIST' }];
const orderTags = (id: number) => [{ type: 'SalesOrder' as const, id }, ...LIST];

export const salesApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    order: build.query<Order, number>({
      query: (id) => ({ url: `${ORDERS}/${id}` }),
      transformResponse: (env) => unwrap<Order>(env),
      providesTags: (_r, _e, id) => [{ type: 'SalesOrder', id }],
    }),
    createOrder: build.mutation<Order, OrderCreate>({
      query: (body) => ({ url: ORDERS, method: 'POST', body }),
      transformResponse: (env) => unwrap<Order>(env),
      invalidatesTags: LIST,
    }),
    updateOrder: build.mutation<Order, { id: number; body: OrderUpdate }>({
      query: ({ id, body }) => ({ url: `${ORDERS}/${id}`, method: 'PUT', body }),
      transformResponse: (env) => unwrap<Order>(env),
      invalidatesTags: (_r, _e, { id }) => orderTags(id),
    }),
    setStatus: build.mutation<Order, { id: number; status: string; override_credit?: boolean; reason?: string }>({
      query: ({ id, status, override_credit, reason }) => ({
        url: `${ORDERS}/${id}/status`,
        method: 'PUT',
        params: { status, ...(override_credit ? { override_credit: true, reason: reason ?? '' } : {}) },
      }),
      transformResponse: (env) => unwrap<Order>(env),
      invalidatesTags: (_r, _e, { id }) => orderTags(id),
    }),
    assign: build.mutation<Order, { id: number; body: AssignBody }>({
      query: ({ id, body }) => ({ url: `${ORDERS}/${id}/assign`, method: 'POST', body }),
      transformResponse: (env) => unwrap<Order>(env),
      invalidatesTags: (_r, _e, { id }) => orderTags(id),
    }),
    unassign: build.mutation<Order, number>({
      query: (id) => ({ url: `${ORDERS}/${id}/unassign`, method: 'POST', body: {} }),
      transformResponse: (env) => unwrap<Order>(env),
      invalidatesTags: (_r, _e, id) => orderTags(id),
    }),
    startDelivery: build.mutation<Order, { id: number; start?: string }>({
      query: ({ id, start }) => ({ url: `${ORDERS}/${id}/start-delivery`, method: 'PUT', params: start ? { start_date_time: start } : undefined }),
      transformResponse: (env) => unwrap<Order>(env),
      invalidatesTags: (_r, _e, { id }) => orderTags(id),
    }),
    deliverProducts: build.mutation<Order, { id: number; lines: DeliveredLine[] }>({
      query: ({ id, lines }) => ({ url: `${ORDERS}/${id}/deliver-products`, method: 'POST', body: { line_items: lines } }),
      transformResponse: (env) => unwrap<Order>(env),
      invalidatesTags: (_r, _e, { id }) => orderTags(id),
    }),
    deliver: build.mutation<Order, { id: number; lines: DeliveredLine[] }>({
      query: ({ id, lines }) => ({ url: `${ORDERS}/${id}/deliver`, method: 'POST', body: { line_items: lines } }),
      transformResponse: (env) => unwrap<Order>(env),
      invalidatesTags: (_r, _e, { id }) => orderTags(id),
    }),
    deleteLine: build.mutation<void, { id: number; orderId: number }>({
      query: ({ id }) => ({ url: `/line-item/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { orderId }) => orderTags(orderId),
    }),
    deleteFee: build.mutation<void, { id: number; orderId: number }>({
      query: ({ id }) => ({ url: `${ORDERS}/fee/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { orderId }) => orderTags(orderId),
    }),
    addNote: build.mutation<unknown, { orderId: number; body: string }>({
      query: ({ orderId, body }) => ({ url: '/note', method: 'POST', body: { sales_order_id: orderId, body } }),
      invalidatesTags: (_r, _e, { orderId }) => [{ type: 'SalesOrder', id: orderId }],
    }),
    deleteNote: build.mutation<void, { id: number; orderId: number }>({
      query: ({ id }) => ({ url: `/note/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { orderId }) => [{ type: 'SalesOrder', id: orderId }],
    }),
    taxes: build.query<TaxSummary, number>({
      query: (id) => ({ url: `/tax/sales-orders/taxes/${id}` }),
      transformResponse: (env) => unwrap<TaxSummary>(env),
      providesTags: (_r, _e, id) => [{ type: 'SalesOrder', id }],
    }),
    board: build.query<Board, BoardQuery>({
      query: (params) => ({ url: `${ORDERS}/board`, params }),
      transformResponse: (env) => unwrap<Board>(env),
      providesTags: [{ type: 'Board', id: 'LIST' }],
    }),
    dispatchDay: build.query<DispatchDay, DispatchQuery>({
      query: (params) => ({ url: '/dispatch/day', params }),
      transformResponse: (env) => unwrap<DispatchDay>(env),
      providesTags: [{ type: 'Dispatch', id: 'LIST' }],
    }),
    reorderStops: build.mutation<unknown, { truck_id: number; date: string; order_ids: number[] }>({
      query: (body) => ({ url: '/dispatch/stops', method: 'PUT', body }),
      invalidatesTags: LIST,
    }),
    // The invoice of a delivered order (the invoices screens live in features/invoices).
    invoiceOrder: build.mutation<InvoiceOfOrder, number>({
      query: (id) => ({ url: '/invoice/create', method: 'POST', params: { sales_order_id: id } }),
      transformResponse: (env) => unwrap<InvoiceOfOrder>(env),
      invalidatesTags: (_r, _e, id) => orderTags(id),
    }),
    fees: build.query<FeeItem[], void>({
      // Spec §9: fee lookups load 100 fees.
      query: () => ({ url: '/fee', params: { page: 1, size: 100 } }),
      transformResponse: (env) => unwrap<{ items: FeeItem[] }>(env).items,
    }),
    tanks: build.query<TankItem[], { customerId: number; shipToId?: number | null }>({
      query: ({ customerId, shipToId }) => ({ url: '/asset', params: shipToId ? { ship_to_id: shipToId, size: 200 } : { customer_id: customerId, size: 200 } }),
      transformResponse: (env) => unwrap<{ items: TankItem[] }>(env).items,
    }),
    trailers: build.query<UnitItem[], void>({
      query: () => ({ url: '/company-asset', params: { category: 'trailer', is_active: true, size: 100 } }),
      transformResponse: (env) => unwrap<{ items: UnitItem[] }>(env).items,
    }),
  }),
});

export const {
  useOrderQuery,
  useCreateOrderMutation,
  useUpdateOrderMutation,
  useSetStatusMutation,
  useAssignMutation,
  useUnassignMutation,
  useStartDeliveryMutation,
  useDeliverProductsMutation,
  useDeliverMutation,
  useDeleteLineMutation,
  useDeleteFeeMutation,
  useAddNoteMutation,
  useDeleteNoteMutation,
  useTaxesQuery,
  useBoardQuery,
  useDispatchDayQuery,
  useReorderStopsMutation,
  useFeesQuery,
  useInvoiceOrderMutation,
  useTanksQuery,
  useTrailersQuery,
} = salesApi;

export const ORDER_STATUSES: Record<string, StatusStyle> = {
  draft: { label: 'Draft', color: 'default' },
  verified: { label: 'Verified', color: 'info' },
  assigned: { label: 'Assigned', color: 'primary' },
  in_delivery: { label: 'In delivery', color: 'warning' },
  delivered: { label: 'Delivered', color: 'secondary' },
  completed: { label: 'Completed', color: 'success' },
  archive: { label: 'Archived', color: 'default' },
  cancelled: { label: 'Cancelled', color: 'error' },
};

export const statusLabel = (s: string) => ORDER_STATUSES[s]?.label ?? s;

/** The message of a failed call, and the credit facts of a refused verification. */
export function errorText(e: unknown): string {
  return isApiError(e) ? e.message : 'Something went wrong.';
}

export function creditRefusal(e: unknown): { canOverride: boolean; message: string } | null {
  if (!isApiError(e) || e.status !== 409 || !e.body || typeof e.body !== 'object') return null;
  const body = e.body as Record<string, unknown>;
  if (!('credit_reasons' in body)) return null;
  return { canOverride: body.can_override === true, message: e.message };
}

export const money = (v: string | number | null | undefined) =>
  v === null || v === undefined || v === '' ? '—' : Number(v).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
export const qty = (v: string | number | null | undefined) =>
  v === null || v === undefined || v === '' ? '—' : Number(v).toLocaleString('en-US', { maximumFractionDigits: 3 });

export type Explained = ApiData<'/api/customer-price/explain', 'get'>;
export type ExplainQuery = ApiQuery<'/api/customer-price/explain', 'get'>;

/** The pricing engine's explained price of one line (before the order is saved). */
export const explainApi = api.injectEndpoints({
  endpoints: (build) => ({
    explain: build.query<Explained, ExplainQuery>({
      query: (params) => ({ url: '/customer-price/explain', params }),
      transformResponse: (env) => unwrap<Explained>(env),
    }),
  }),
});
export const { useExplainQuery } = explainApi;

/** Spec section 8: the invoice toast with the counts of updated, created and removed lines. */
export const invoiceToast = (r: InvoiceOfOrder) =>
  `Invoice ${r.invoice_no}: ${r.summary.updated} updated, ${r.summary.created} created, ${r.summary.removed} removed`;
export const MSG_INVOICE = 'Failed to create/update invoice';
