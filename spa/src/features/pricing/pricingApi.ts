import { createResourceApi } from '@/components/resource';
import { api, unwrap } from '@/lib/api/api';
import type { ApiBody, ApiData, ApiQuery, PageItem } from '@/lib/api/types';

export type Tax = PageItem<'/api/tax'>;
export type TaxCreate = ApiBody<'/api/tax', 'post'>;
export type TaxUpdate = ApiBody<'/api/tax/{id}', 'put'>;
export type TaxRateBody = ApiBody<'/api/tax/tax-rate', 'post'>;

export const taxesApi = createResourceApi<Tax, TaxCreate, TaxUpdate>({
  key: 'tax',
  tag: 'Tax',
  listPath: '/tax',
  exportPath: '/tax/export',
  itemPath: (id) => `/tax/${id}`,
});

export type Fee = PageItem<'/api/fee'>;
export type FeeCreate = ApiBody<'/api/fee', 'post'>;
export type FeeUpdate = ApiBody<'/api/fee/{id}', 'put'>;

export const feesApi = createResourceApi<Fee, FeeCreate, FeeUpdate>({
  key: 'fee',
  tag: 'Fee',
  listPath: '/fee',
  exportPath: '/fee/export',
  itemPath: (id) => `/fee/${id}`,
});

export type PricingRule = PageItem<'/api/pricing-rule'>;
export type PricingRuleCreate = ApiBody<'/api/pricing-rule', 'post'>;
export type PricingRuleUpdate = ApiBody<'/api/pricing-rule/{id}', 'put'>;

export const pricingRulesApi = createResourceApi<PricingRule, PricingRuleCreate, PricingRuleUpdate>({
  key: 'pricingRule',
  tag: 'PricingRule',
  listPath: '/pricing-rule',
  exportPath: '/pricing-rule/export',
  itemPath: (id) => `/pricing-rule/${id}`,
});

export type BuyingPrice = PageItem<'/api/buying-price'>;
export type BuyingPriceBody = ApiBody<'/api/buying-price', 'post'>;

export const buyingPricesApi = createResourceApi<BuyingPrice, BuyingPriceBody, BuyingPriceBody>({
  key: 'buyingPrice',
  tag: 'BuyingPrice',
  listPath: '/buying-price',
  exportPath: '/buying-price/export',
  importPath: '/buying-price/import',
  itemPath: (id) => `/buying-price/${id}`,
});

export type RackBoard = ApiData<'/api/buying-price/board', 'get'>;
export type RackBoardQuery = ApiQuery<'/api/buying-price/board', 'get'>;
export type RackHistory = ApiData<'/api/buying-price/history', 'get'>;
export type RackHistoryQuery = ApiQuery<'/api/buying-price/history', 'get'>;
export type RackSheetBody = ApiBody<'/api/buying-price/sheet', 'post'>;
export type RackSheetResult = ApiData<'/api/buying-price/sheet', 'post'>;
export type PricedDocument = ApiData<'/api/customer-price/explain', 'get'>;
export type ExplainQuery = ApiQuery<'/api/customer-price/explain', 'get'>;

const pricing = api.enhanceEndpoints({ addTagTypes: ['Tax', 'BuyingPrice'] }).injectEndpoints({
  endpoints: (build) => ({
    addTaxRate: build.mutation<unknown, { taxId: number; body: TaxRateBody }>({
      query: ({ taxId, body }) => ({ url: '/tax/tax-rate', method: 'POST', params: { tax_id: taxId }, body }),
      invalidatesTags: [{ type: 'Tax', id: 'LIST' }],
    }),
    deleteTaxRate: build.mutation<unknown, number>({
      query: (id) => ({ url: `/tax/tax-rate/${id}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Tax', id: 'LIST' }],
    }),
    rackBoard: build.query<RackBoard, RackBoardQuery>({
      query: (params) => ({ url: '/buying-price/board', params }),
      transformResponse: (env) => unwrap<RackBoard>(env),
      providesTags: [{ type: 'BuyingPrice', id: 'LIST' }],
    }),
    rackHistory: build.query<RackHistory, RackHistoryQuery>({
      query: (params) => ({ url: '/buying-price/history', params }),
      transformResponse: (env) => unwrap<RackHistory>(env),
      providesTags: [{ type: 'BuyingPrice', id: 'LIST' }],
    }),
    saveRackSheet: build.mutation<{ data: RackSheetResult; message: string }, RackSheetBody>({
      query: (body) => ({ url: '/buying-price/sheet', method: 'POST', body }),
      transformResponse: (env: { data: RackSheetResult; message: string }) => env,
      invalidatesTags: [{ type: 'BuyingPrice', id: 'LIST' }],
    }),
    explainPrice: build.query<PricedDocument, ExplainQuery>({
      query: (params) => ({ url: '/customer-price/explain', params }),
      transformResponse: (env) => unwrap<PricedDocument>(env),
    }),
  }),
});

export const {
  useAddTaxRateMutation,
  useDeleteTaxRateMutation,
  useRackBoardQuery,
  useRackHistoryQuery,
  useSaveRackSheetMutation,
  useLazyExplainPriceQuery,
} = pricing;

/** 4 decimals for a unit price, 2 for money, as the server rounds them. */
export const unitPrice = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '—' : Number(v).toFixed(4));
export const money = (v: string | number | null | undefined) =>
  v === null || v === undefined || v === '' ? '—' : Number(v).toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
export const today = () => new Date().toLocaleDateString('en-CA');
