import { createResourceApi, type StatusStyle } from '@/components/resource';
import { api, unwrap } from '@/lib/api/api';
import type { ApiBody, ApiData, PageItem } from '@/lib/api/types';

export type Customer = PageItem<'/api/customer/customers'>;
export type CustomerCreate = ApiBody<'/api/customer/customers', 'post'>;
export type CustomerUpdate = ApiBody<'/api/customer/customers/{id}', 'put'>;
export type CustomerStatus = NonNullable<CustomerCreate['status']>;

export const customersApi = createResourceApi<Customer, CustomerCreate, CustomerUpdate>({
  key: 'customer',
  tag: 'Customer',
  listPath: '/customer/customers',
  exportPath: '/customer/customers/export',
  importPath: '/customer/customers/import',
  itemPath: (id) => `/customer/customers/${id}`,
});

export type CompanyType = PageItem<'/api/customer-company-type'>;
export type CompanyTypeCreate = ApiBody<'/api/customer-company-type', 'post'>;
export type CompanyTypeUpdate = ApiBody<'/api/customer-company-type/{id}', 'put'>;

export const companyTypesApi = createResourceApi<CompanyType, CompanyTypeCreate, CompanyTypeUpdate>({
  key: 'companyType',
  tag: 'CompanyType',
  listPath: '/customer-company-type',
  exportPath: '/customer-company-type/export',
  itemPath: (id) => `/customer-company-type/${id}`,
  invalidates: ['Customer'],
});

export type ShipTo = PageItem<'/api/customer-ship-to'>;
export type ShipToCreate = ApiBody<'/api/customer-ship-to', 'post'>;
export type ShipToUpdate = ApiBody<'/api/customer-ship-to/{id}', 'put'>;

export const shipTosApi = createResourceApi<ShipTo, ShipToCreate, ShipToUpdate>({
  key: 'shipTo',
  tag: 'ShipTo',
  listPath: '/customer-ship-to',
  exportPath: '/customer-ship-to/export',
  importPath: '/customer-ship-to/import',
  itemPath: (id) => `/customer-ship-to/${id}`,
});

export type Tank = PageItem<'/api/asset'>;
export type TankCreate = ApiBody<'/api/asset', 'post'>;
export type TankUpdate = ApiBody<'/api/asset/{id}', 'put'>;

/** Customer assets (tanks and equipment at a ship-to); listed by customer_id or ship_to_id. */
export const tanksApi = createResourceApi<Tank, TankCreate, TankUpdate>({
  key: 'customerAsset',
  tag: 'CustomerAsset',
  listPath: '/asset',
  exportPath: '/asset/export',
  itemPath: (id) => `/asset/${id}`,
});

export type Supplier = PageItem<'/api/supplier'>;
export type SupplierCreate = ApiBody<'/api/supplier', 'post'>;
export type SupplierUpdate = ApiBody<'/api/supplier/{id}', 'put'>;
export type SupplierStatus = NonNullable<SupplierCreate['status']>;

export const suppliersApi = createResourceApi<Supplier, SupplierCreate, SupplierUpdate>({
  key: 'supplier',
  tag: 'Supplier',
  listPath: '/supplier',
  exportPath: '/supplier/export',
  itemPath: (id) => `/supplier/${id}`,
  invalidates: ['Terminal'],
});

export type Terminal = PageItem<'/api/terminal'>;
export type TerminalCreate = ApiBody<'/api/terminal', 'post'>;
export type TerminalUpdate = ApiBody<'/api/terminal/{id}', 'put'>;

export const terminalsApi = createResourceApi<Terminal, TerminalCreate, TerminalUpdate>({
  key: 'terminal',
  tag: 'Terminal',
  listPath: '/terminal',
  exportPath: '/terminal/export',
  importPath: '/terminal/import',
  itemPath: (id) => `/terminal/${id}`,
  invalidates: ['Supplier'],
});

export type Alias = PageItem<'/api/supplier-product-alias'>;
export type AliasCreate = ApiBody<'/api/supplier-product-alias', 'post'>;
export type AliasUpdate = ApiBody<'/api/supplier-product-alias/{id}', 'put'>;

export const aliasesApi = createResourceApi<Alias, AliasCreate, AliasUpdate>({
  key: 'supplierAlias',
  tag: 'SupplierAlias',
  listPath: '/supplier-product-alias',
  exportPath: '/supplier-product-alias/export',
  itemPath: (id) => `/supplier-product-alias/${id}`,
});

// One customer, and the status calls of customers and suppliers (PUT …/{id}/status?status=…).
const extra = api.enhanceEndpoints({ addTagTypes: ['Customer', 'Supplier'] }).injectEndpoints({
  endpoints: (build) => ({
    customerById: build.query<ApiData<'/api/customer/customers/{id}', 'get'>, number>({
      query: (id) => ({ url: `/customer/customers/${id}` }),
      transformResponse: (env) => unwrap(env),
      providesTags: [{ type: 'Customer', id: 'LIST' }],
    }),
    customerStatus: build.mutation<unknown, { id: number; status: CustomerStatus }>({
      query: ({ id, status }) => ({ url: `/customer/customers/${id}/status`, method: 'PUT', params: { status } }),
      invalidatesTags: [{ type: 'Customer', id: 'LIST' }],
    }),
    supplierStatus: build.mutation<unknown, { id: number; status: SupplierStatus }>({
      query: ({ id, status }) => ({ url: `/supplier/${id}/status`, method: 'PUT', params: { status } }),
      invalidatesTags: [{ type: 'Supplier', id: 'LIST' }],
    }),
  }),
});

export const { useCustomerByIdQuery, useCustomerStatusMutation, useSupplierStatusMutation } = extra;

export const CUSTOMER_STATUSES: Record<CustomerStatus, StatusStyle & { help: string }> = {
  active: { label: 'Active', color: 'success', help: 'Can order as usual' },
  on_hold: { label: 'On hold', color: 'warning', help: 'No new orders for now' },
  credit_hold: { label: 'Credit hold', color: 'error', help: 'Over the credit limit or overdue' },
  inactive: { label: 'Inactive', color: 'default', help: 'Kept for history' },
};

export const SUPPLIER_STATUSES: Record<SupplierStatus, StatusStyle & { help: string }> = {
  active: { label: 'Active', color: 'success', help: 'Buying from them' },
  inactive: { label: 'Inactive', color: 'default', help: 'Kept for history' },
};

export const TANK_TYPES = [
  { value: 'above_ground', label: 'Above ground' },
  { value: 'underground', label: 'Underground' },
  { value: 'skid', label: 'Skid tank' },
  { value: 'portable', label: 'Portable' },
  { value: 'equipment', label: 'Equipment' },
  { value: 'vehicle', label: 'Vehicle' },
  { value: 'other', label: 'Other' },
] as const;
