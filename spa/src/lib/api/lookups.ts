/**
 * Shared look-ups (options for selects) that several features use. Features must not import each
 * other, so the lists they share live here, typed from the generated schema.
 */
import { api, unwrap } from './api';
import type { ApiData } from './types';

export type RoleItem = ApiData<'/api/role', 'get'>['items'][number];
export type StateItem = ApiData<'/api/state/states/all', 'get'>[number];
export type CityItem = ApiData<'/api/city/cities/all', 'get'>[number];

export interface LookupOption {
  value: number;
  label: string;
}

const lookups = api.injectEndpoints({
  endpoints: (build) => ({
    roleLookup: build.query<RoleItem[], void>({
      query: () => ({ url: '/role', params: { page: 1, size: 100, sort_by: 'name', order: 'asc' } }),
      transformResponse: (env) => unwrap<ApiData<'/api/role', 'get'>>(env)?.items ?? [],
      providesTags: [{ type: 'Role', id: 'LIST' }],
    }),
    stateLookup: build.query<StateItem[], void>({
      query: () => ({ url: '/state/states/all' }),
      transformResponse: (env) => unwrap<StateItem[]>(env) ?? [],
      providesTags: [{ type: 'State', id: 'LIST' }],
    }),
    cityLookup: build.query<CityItem[], void>({
      query: () => ({ url: '/city/cities/all' }),
      transformResponse: (env) => unwrap<CityItem[]>(env) ?? [],
      providesTags: [{ type: 'City', id: 'LIST' }],
    }),
  }),
});

export const { useRoleLookupQuery, useStateLookupQuery, useCityLookupQuery } = lookups;

// ---------------------------------------------------------------- master data (the '/all' lists)

export type CompanyTypeItem = ApiData<'/api/customer-company-type/all', 'get'>[number];
export type PaymentTermItem = ApiData<'/api/payment-term/all', 'get'>[number];
export type PaymentMethodItem = ApiData<'/api/payment-method/all', 'get'>[number];
export type CustomerItem = ApiData<'/api/customer/customers/all', 'get'>[number];
export type ShipToItem = ApiData<'/api/customer-ship-to/all', 'get'>[number];
export type ProductItem = ApiData<'/api/product/products/all', 'get'>[number];
export type ProductCategoryItem = ApiData<'/api/product-category/all', 'get'>[number];
export type ProductSubCategoryItem = ApiData<'/api/product-sub-category/all', 'get'>[number];
export type SupplierItem = ApiData<'/api/supplier/all', 'get'>[number];
export type TerminalItem = ApiData<'/api/terminal/all', 'get'>[number];
export type RegionItem = ApiData<'/api/region/all', 'get'>[number];
export type YardItem = ApiData<'/api/yard/all', 'get'>[number];
export type AssetTypeItem = ApiData<'/api/asset-type/all', 'get'>[number];
export type ContactServiceItem = ApiData<'/api/customer-contact/services', 'get'>[number];
export type DriverItem = ApiData<'/api/driver/all', 'get'>[number];
export type UserItem = ApiData<'/api/user-account', 'get'>['items'][number];

/**
 * RTK Query tags of the master-data resources. A feature's resource api uses the same tag, so a
 * write there refreshes these options.
 */
export const MASTER_TAGS = [
  'Customer', 'CompanyType', 'ShipTo', 'PaymentTerm', 'PaymentMethod', 'Product', 'ProductCategory', 'ProductSubCategory',
  'Supplier', 'Terminal', 'Region', 'Yard', 'AssetType', 'ContactService', 'Driver', 'User',
] as const;

/** Rows in the order the server sent them, each id once (a list that changed between calls repeats none). */
function uniqueRows<T>(rows: unknown): T[] {
  const list = (Array.isArray(rows) ? rows : rows && typeof rows === 'object' && Array.isArray((rows as { items?: unknown }).items) ? (rows as { items: unknown[] }).items : []) as T[];
  const seen = new Set<unknown>();
  return list.filter((r) => {
    const id = (r as { id?: unknown }).id;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

const master = api.enhanceEndpoints({ addTagTypes: [...MASTER_TAGS] }).injectEndpoints({
  endpoints: (build) => {
    const all = <T,>(url: string, tag: (typeof MASTER_TAGS)[number], keepUnusedDataFor?: number) =>
      build.query<T[], void>({
        query: () => ({ url }),
        transformResponse: (env) => uniqueRows<T>(unwrap(env)),
        providesTags: [{ type: tag, id: 'LIST' }],
        ...(keepUnusedDataFor ? { keepUnusedDataFor } : {}),
      });
    return {
      companyTypeLookup: all<CompanyTypeItem>('/customer-company-type/all', 'CompanyType'),
      paymentTermLookup: all<PaymentTermItem>('/payment-term/all', 'PaymentTerm'),
      paymentMethodLookup: all<PaymentMethodItem>('/payment-method/all', 'PaymentMethod'),
      customerLookup: all<CustomerItem>('/customer/customers/all', 'Customer'),
      productLookup: all<ProductItem>('/product/products/all', 'Product'),
      productCategoryLookup: all<ProductCategoryItem>('/product-category/all', 'ProductCategory'),
      productSubCategoryLookup: all<ProductSubCategoryItem>('/product-sub-category/all', 'ProductSubCategory'),
      supplierLookup: all<SupplierItem>('/supplier/all', 'Supplier'),
      terminalLookup: all<TerminalItem>('/terminal/all', 'Terminal'),
      regionLookup: all<RegionItem>('/region/all', 'Region'),
      yardLookup: all<YardItem>('/yard/all', 'Yard'),
      assetTypeLookup: all<AssetTypeItem>('/asset-type/all', 'AssetType'),
      contactServiceLookup: all<ContactServiceItem>('/customer-contact/services', 'ContactService'),
      // Spec section 7: the driver list is cached (kept 5 minutes) and de-duplicated.
      driverLookup: all<DriverItem>('/driver/all', 'Driver', 300),
      shipToLookup: build.query<ShipToItem[], number>({
        query: (customerId) => ({ url: '/customer-ship-to', params: { customer_id: customerId, page: 1, size: 500, sort_by: 'name', order: 'asc' } }),
        transformResponse: (env) => uniqueRows<ShipToItem>(unwrap(env)),
        providesTags: [{ type: 'ShipTo', id: 'LIST' }],
      }),
      currentUserPermissions: build.query<{ permissions: string[]; grantsAll: boolean }, void>({
        query: () => ({ url: '/role/current-user' }),
        transformResponse: (env) => {
          const d = unwrap<ApiData<'/api/role/current-user', 'get'>>(env);
          return { permissions: d?.permissions ?? [], grantsAll: !!d?.role?.grants_all };
        },
        providesTags: [{ type: 'CurrentUser', id: 'LIST' }, { type: 'Role', id: 'LIST' }],
      }),
      userLookup: build.query<UserItem[], void>({
        query: () => ({ url: '/user-account', params: { page: 1, size: 100, sort_by: 'name', order: 'asc' } }),
        transformResponse: (env) => uniqueRows<UserItem>(unwrap(env)),
        providesTags: [{ type: 'User', id: 'LIST' }],
      }),
    };
  },
});

export const {
  useCompanyTypeLookupQuery,
  usePaymentTermLookupQuery,
  usePaymentMethodLookupQuery,
  useCustomerLookupQuery,
  useProductLookupQuery,
  useProductCategoryLookupQuery,
  useProductSubCategoryLookupQuery,
  useSupplierLookupQuery,
  useTerminalLookupQuery,
  useRegionLookupQuery,
  useYardLookupQuery,
  useAssetTypeLookupQuery,
  useContactServiceLookupQuery,
  useDriverLookupQuery,
  useShipToLookupQuery,
  useUserLookupQuery,
  useCurrentUserPermissionsQuery,
} = master;

export interface ResourcePermissions {
  view: boolean;
  add: boolean;
  change: boolean;
  delete: boolean;
  /** False until the current user's permissions have loaded (everything reads as allowed meanwhile). */
  known: boolean;
}

/**
 * What the signed-in user may do with a resource (permission codes `<resource>.<action>`, from
 * GET /api/role/current-user). Until the answer arrives, or if it fails, everything reads as allowed:
 * the server refuses what is not (403), so buttons only hide when the answer says so.
 */
export function usePermissions(resource: string): ResourcePermissions {
  const q = useCurrentUserPermissionsQuery(undefined, { skip: !resource });
  const data = q.data;
  if (!data) return { view: true, add: true, change: true, delete: true, known: false };
  const has = (action: string) => data.grantsAll || data.permissions.includes(`${resource}.${action}`) || data.permissions.includes(`${resource}.${action}:own`);
  return { view: has('view'), add: has('add'), change: has('change'), delete: has('delete'), known: true };
}

export interface OptionsResult {
  options: LookupOption[];
  loading: boolean;
  error: string | null;
}

type LookupQuery<T> = { data?: T[]; isLoading: boolean; error?: unknown };

function toOptions<T>(q: LookupQuery<T>, label: (row: T) => string, what: string, keep?: (row: T) => boolean): OptionsResult {
  const rows = q.data ?? [];
  return {
    options: (keep ? rows.filter(keep) : rows).map((r) => ({ value: (r as { id: number }).id, label: label(r) })),
    loading: q.isLoading,
    error: q.error ? (q.error as { message?: string }).message || `Failed to load ${what}` : null,
  };
}

const withCode = (name: string, code?: string | null) => (code && code.toLowerCase() !== name.toLowerCase() ? `${name} (${code})` : name);

export const useCompanyTypeOptions = () => toOptions<CompanyTypeItem>(useCompanyTypeLookupQuery(), (r) => r.company_type, 'company types');
export const usePaymentTermOptions = () => toOptions<PaymentTermItem>(usePaymentTermLookupQuery(), (r) => (r.summary && r.summary !== r.name ? `${r.name} · ${r.summary}` : r.name), 'payment terms');
export const usePaymentMethodOptions = () => toOptions<PaymentMethodItem>(usePaymentMethodLookupQuery(), (r) => withCode(r.name, r.code), 'payment methods');
export const useCustomerOptions = () => toOptions<CustomerItem>(useCustomerLookupQuery(), (r) => withCode(r.name, r.account_number), 'customers');
export const useProductOptions = () => toOptions<ProductItem>(useProductLookupQuery(), (r) => withCode(r.name, r.code), 'products');
export const useProductCategoryOptions = () => toOptions<ProductCategoryItem>(useProductCategoryLookupQuery(), (r) => r.name, 'categories');
/** Sub-categories, of one category when given. */
export const useProductSubCategoryOptions = (categoryId?: number | null) =>
  toOptions<ProductSubCategoryItem>(useProductSubCategoryLookupQuery(), (r) => (categoryId ? r.name : `${r.category?.name ?? ''} › ${r.name}`), 'sub-categories', (r) => !categoryId || r.category_id === categoryId);
export const useSupplierOptions = () => toOptions<SupplierItem>(useSupplierLookupQuery(), (r) => withCode(r.name, r.code), 'suppliers');
export const useTerminalOptions = () => toOptions<TerminalItem>(useTerminalLookupQuery(), (r) => withCode(r.name, r.terminal_code), 'terminals');
export const useRegionOptions = () => toOptions<RegionItem>(useRegionLookupQuery(), (r) => withCode(r.name, r.code), 'regions');
export const useYardOptions = () => toOptions<YardItem>(useYardLookupQuery(), (r) => withCode(r.name, r.code), 'yards');
export const useAssetTypeOptions = () => toOptions<AssetTypeItem>(useAssetTypeLookupQuery(), (r) => r.name, 'asset types');
export const useContactServiceOptions = () => toOptions<ContactServiceItem>(useContactServiceLookupQuery(), (r) => r.name, 'services', (r) => r.is_active);
export const useDriverOptions = () => toOptions<DriverItem>(useDriverLookupQuery(), (r) => r.name, 'drivers');
export const useUserOptions = () => toOptions<UserItem>(useUserLookupQuery(), (r) => `${r.name} (${r.email})`, 'users');
/** The ship-tos of one customer (none until a customer is chosen). */
export function useShipToOptions(customerId: number | null | undefined): OptionsResult {
  const q = useShipToLookupQuery(customerId ?? 0, { skip: !customerId });
  return toOptions<ShipToItem>(customerId ? (q) : { data: [], isLoading: false }, (r) => r.name, 'ship-tos');
}

export function useRoleOptions(): { options: LookupOption[]; loading: boolean; error: string | null } {
  const q = useRoleLookupQuery();
  return {
    options: (q.data ?? []).map((r) => ({ value: r.id, label: r.name })),
    loading: q.isLoading,
    error: q.error ? (q.error as { message?: string }).message || 'Failed to load roles' : null,
  };
}

export function useStateOptions(): { options: LookupOption[]; loading: boolean; error: string | null } {
  const q = useStateLookupQuery();
  return {
    options: (q.data ?? []).map((s) => ({ value: s.id, label: s.code ? `${s.name} (${s.code})` : s.name })),
    loading: q.isLoading,
    error: q.error ? (q.error as { message?: string }).message || 'Failed to load states' : null,
  };
}

export function useCityOptions(stateId: number | null | undefined): { options: LookupOption[]; loading: boolean; error: string | null } {
  const q = useCityLookupQuery();
  const cities = (q.data ?? []).filter((c) => !stateId || c.state_id === stateId);
  return {
    options: cities.map((c) => ({ value: c.id, label: c.name })),
    loading: q.isLoading,
    error: q.error ? (q.error as { message?: string }).message || 'Failed to load cities' : null,
  };
}
