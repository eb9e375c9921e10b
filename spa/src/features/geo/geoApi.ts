import { createResourceApi } from '@/components/resource';
import type { ApiBody, ApiData, PageItem } from '@/lib/api/types';

// States and cities: the spec's client reads them whole (GET states/all, cities/all).
export type State = ApiData<'/api/state/states/all', 'get'>[number];
export type StateCreate = ApiBody<'/api/state/states', 'post'>;
export type StateUpdate = ApiBody<'/api/state/states/{id}', 'put'>;

export const statesApi = createResourceApi<State, StateCreate, StateUpdate>({
  key: 'state',
  tag: 'State',
  listKind: 'all',
  listPath: '/state/states/all',
  createPath: '/state/states',
  itemPath: (id) => `/state/states/${id}`,
  invalidates: ['City'],
});

export type City = ApiData<'/api/city/cities/all', 'get'>[number];
export type CityCreate = ApiBody<'/api/city/cities', 'post'>;
export type CityUpdate = ApiBody<'/api/city/cities/{id}', 'put'>;

export const citiesApi = createResourceApi<City, CityCreate, CityUpdate>({
  key: 'city',
  tag: 'City',
  listKind: 'all',
  listPath: '/city/cities/all',
  createPath: '/city/cities',
  itemPath: (id) => `/city/cities/${id}`,
});

export type Region = PageItem<'/api/region'>;
export type RegionCreate = ApiBody<'/api/region', 'post'>;
export type RegionUpdate = ApiBody<'/api/region/{id}', 'put'>;

export const regionsApi = createResourceApi<Region, RegionCreate, RegionUpdate>({
  key: 'region',
  tag: 'Region',
  listPath: '/region',
  exportPath: '/region/export',
  itemPath: (id) => `/region/${id}`,
});

export type Yard = PageItem<'/api/yard'>;
export type YardCreate = ApiBody<'/api/yard', 'post'>;
export type YardUpdate = ApiBody<'/api/yard/{id}', 'put'>;

export const yardsApi = createResourceApi<Yard, YardCreate, YardUpdate>({
  key: 'yard',
  tag: 'Yard',
  listPath: '/yard',
  exportPath: '/yard/export',
  itemPath: (id) => `/yard/${id}`,
});
