import { api, unwrap } from '@/lib/api/api';
import type { ApiBody, ApiData } from '@/lib/api/types';

export type CompanySettingsOut = ApiData<'/api/company-settings/{id}', 'put'>;
export type CompanySettingsIn = ApiBody<'/api/company-settings', 'post'>;
export type UploadedFile = ApiData<'/api/storage/upload-file', 'post'>;

export const companyApi = api.injectEndpoints({
  endpoints: (build) => ({
    createCompanySettings: build.mutation<CompanySettingsOut, CompanySettingsIn>({
      query: (body) => ({ url: '/company-settings/', method: 'POST', body }),
      transformResponse: (env) => unwrap<CompanySettingsOut>(env),
    }),
    updateCompanySettings: build.mutation<CompanySettingsOut, { id: number; body: CompanySettingsIn }>({
      query: ({ id, body }) => ({ url: `/company-settings/${id}`, method: 'PUT', body }),
      transformResponse: (env) => unwrap<CompanySettingsOut>(env),
    }),
    uploadFile: build.mutation<UploadedFile, { file: File; purpose: string }>({
      query: ({ file, purpose }) => {
        const form = new FormData();
        form.append('file', file);
        form.append('purpose', purpose);
        return { url: '/storage/upload-file', method: 'POST', body: form };
      },
      transformResponse: (env) => unwrap<UploadedFile>(env),
    }),
  }),
});

export const { useCreateCompanySettingsMutation, useUpdateCompanySettingsMutation, useUploadFileMutation } = companyApi;
