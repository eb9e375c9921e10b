import { api, unwrap } from '@/lib/api/api';
import type { ApiBody, ApiData } from '@/lib/api/types';

export type CustomerPricing = ApiData<'/api/customer-price', 'get'>;
export type CustomerPricingBody = ApiBody<'/api/customer-price/{customer_id}', 'put'>;

const customerPricing = api.enhanceEndpoints({ addTagTypes: ['CustomerPricing', 'Customer'] }).injectEndpoints({
  endpoints: (build) => ({
    customerPricing: build.query<CustomerPricing, { customerId: number; page: number; size: number }>({
      query: ({ customerId, page, size }) => ({ url: '/customer-price', params: { customer_id: customerId, page, size } }),
      transformResponse: (env) => unwrap<CustomerPricing>(env),
      providesTags: [{ type: 'CustomerPricing', id: 'LIST' }],
    }),
    addCustomerPricing: build.mutation<{ message: string }, { customerId: number; body: CustomerPricingBody }>({
      query: ({ customerId, body }) => ({ url: `/customer-price/${customerId}`, method: 'POST', body }),
      invalidatesTags: [{ type: 'CustomerPricing', id: 'LIST' }, { type: 'Customer', id: 'LIST' }],
    }),
    updateCustomerPricing: build.mutation<{ message: string }, { customerId: number; body: CustomerPricingBody }>({
      query: ({ customerId, body }) => ({ url: `/customer-price/${customerId}`, method: 'PUT', body }),
      invalidatesTags: [{ type: 'CustomerPricing', id: 'LIST' }, { type: 'Customer', id: 'LIST' }],
    }),
    deleteCustomerPricing: build.mutation<{ message: string }, { customerId: number; id?: number }>({
      query: ({ customerId, id }) => ({ url: `/customer-price/${customerId}`, method: 'DELETE', params: id ? { id } : undefined }),
      invalidatesTags: [{ type: 'CustomerPricing', id: 'LIST' }, { type: 'Customer', id: 'LIST' }],
    }),
  }),
});

export const { useCustomerPricingQuery, useAddCustomerPricingMutation, useUpdateCustomerPricingMutation, useDeleteCustomerPricingMutation } = customerPricing;

export const PRICING_TYPES: Record<string, { label: string; help: string }> = {
  standard: { label: 'Standard (pricing rules)', help: 'Prices come from the pricing rules.' },
  fixed: { label: 'Fixed contract prices', help: 'Each product at its agreed price (+ margin).' },
  rack_plus: { label: 'Rack plus', help: "The rack at the item's terminal + margin + freight." },
  cost_plus: { label: 'Cost plus', help: 'Our last buying cost + margin + freight.' },
};
