import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQuery } from './baseQuery';

/**
 * The single RTK Query API slice. Features add their endpoints with `api.injectEndpoints` and
 * `api.enhanceEndpoints({ addTagTypes })`; their types come from the generated schema
 * (./schema.d.ts, via ./types.ts), never written by hand.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Profile', 'CompanySettings', 'User', 'Role', 'Permission', 'CurrentUser', 'State', 'City', 'CompanyAsset'],
  refetchOnMountOrArgChange: 30,
  endpoints: () => ({}),
});

/** Unwraps the server envelope {status_code, message, data} to its data. */
export function unwrap<T>(envelope: unknown): T {
  if (envelope && typeof envelope === 'object' && 'data' in envelope) return (envelope as { data: T }).data;
  return envelope as T;
}
