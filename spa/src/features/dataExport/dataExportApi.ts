import { api, unwrap } from '@/lib/api/api';
import type { ApiData } from '@/lib/api/types';

export type DataExport = ApiData<'/api/data-export/{export_id}', 'get'>;
type DataExports = ApiData<'/api/data-export', 'get'>;

export const dataExportApi = api.enhanceEndpoints({ addTagTypes: ['DataExport'] }).injectEndpoints({
  endpoints: (build) => ({
    dataExports: build.query<DataExport[], void>({
      query: () => ({ url: '/data-export' }),
      transformResponse: (env) => unwrap<DataExports>(env).items,
      providesTags: ['DataExport'],
    }),
    startDataExport: build.mutation<DataExport, void>({
      query: () => ({ url: '/data-export', method: 'POST' }),
      transformResponse: (env) => unwrap<DataExport>(env),
      invalidatesTags: ['DataExport'],
    }),
  }),
});

export const { useDataExportsQuery, useStartDataExportMutation } = dataExportApi;
