import { createResourceApi } from '@/components/resource';
import type { ApiBody, ApiData, PageItem, Schemas } from '@/lib/api/types';

// Asset types: the spec's client reads them whole (GET asset-type/all).
export type AssetType = ApiData<'/api/asset-type/all', 'get'>[number];
export type AssetTypeCreate = ApiBody<'/api/asset-type', 'post'>;
export type AssetTypeUpdate = ApiBody<'/api/asset-type/{id}', 'put'>;

export const assetTypesApi = createResourceApi<AssetType, AssetTypeCreate, AssetTypeUpdate>({
  key: 'assetType',
  tag: 'AssetType',
  listKind: 'all',
  listPath: '/asset-type/all',
  createPath: '/asset-type',
  itemPath: (id) => `/asset-type/${id}`,
});

export type CompanyAsset = PageItem<'/api/company-asset'>;
export type CompanyAssetCreate = ApiBody<'/api/company-asset', 'post'>;
export type CompanyAssetUpdate = ApiBody<'/api/company-asset/{id}', 'put'>;
export type Compartment = Schemas['Compartment'];

export const companyAssetsApi = createResourceApi<CompanyAsset, CompanyAssetCreate, CompanyAssetUpdate>({
  key: 'companyAsset',
  tag: 'CompanyAsset',
  listPath: '/company-asset',
  exportPath: '/company-asset/export',
  itemPath: (id) => `/company-asset/${id}`,
});

export type Driver = PageItem<'/api/driver'>;
export type DriverCreate = ApiBody<'/api/driver', 'post'>;
export type DriverUpdate = ApiBody<'/api/driver/{id}', 'put'>;

/** Spec section 7: the driver list is cached (5 minutes) and de-duplicated. */
export const driversApi = createResourceApi<Driver, DriverCreate, DriverUpdate>({
  key: 'driver',
  tag: 'Driver',
  listPath: '/driver',
  exportPath: '/driver/export',
  itemPath: (id) => `/driver/${id}`,
  dedupeById: true,
  keepUnusedDataFor: 300,
  invalidates: ['User'],
});

export const ASSET_CATEGORIES = [
  { value: 'truck', label: 'Truck' },
  { value: 'trailer', label: 'Trailer' },
  { value: 'tank_wagon', label: 'Tank wagon' },
  { value: 'bobtail', label: 'Bobtail' },
  { value: 'other', label: 'Other' },
] as const;

export const categoryLabel = (v: string) => ASSET_CATEGORIES.find((c) => c.value === v)?.label ?? v;
