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
