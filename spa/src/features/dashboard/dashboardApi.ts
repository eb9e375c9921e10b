import { api, unwrap } from '@/lib/api/api';
import type { ApiData, ApiQuery } from '@/lib/api/types';

export type ProductSummary = ApiData<'/api/dashboard/product_summary', 'get'>;
export type SummaryQuery = ApiQuery<'/api/dashboard/product_summary', 'get'>;
export type SummaryProduct = ProductSummary['products'][number];

/** Spec section 8: both shown as toasts. */
export const MSG_FETCH = 'Failed to fetch product summary data';
export const MSG_PROCESS = 'Failed to process product summary data';
/** Spec section 9: the dashboard's default window. */
export const DEFAULT_DAYS = 7;
export const MAX_DAYS = 366;

const tagged = api.enhanceEndpoints({ addTagTypes: ['ProductSummary'] });

/**
 * GET dashboard/product_summary (days=7, force_refresh=false). RTK Query keys a request by its
 * arguments, so identical requests in flight are shared (spec section 7): every component asking
 * for the same window waits on one call.
 */
export const dashboardApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    productSummary: build.query<ProductSummary, { days: number; force_refresh?: boolean }>({
      query: ({ days, force_refresh = false }) => ({
        url: '/dashboard/product_summary',
        params: { days, force_refresh },
      }),
      transformResponse: (env) => unwrap<ProductSummary>(env),
      providesTags: [{ type: 'ProductSummary', id: 'LIST' }],
    }),
  }),
});

export const { useProductSummaryQuery, useLazyProductSummaryQuery } = dashboardApi;
