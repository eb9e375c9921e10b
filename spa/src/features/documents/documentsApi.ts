import { api, unwrap } from '@/lib/api/api';
import { apiError } from '@/lib/api/errors';
import { buildHeaders } from '@/lib/api/http';
import { buildApiUrl } from '@/lib/api/url';
import type { ApiBody, ApiData, ApiQuery, PageItem } from '@/lib/api/types';

export type TemplateOut = PageItem<'/api/template'>;
export type TemplateIn = ApiBody<'/api/template', 'post'>;
export type TemplateUpdate = ApiBody<'/api/template/{id}', 'put'>;
export type RenderIn = ApiBody<'/api/template/render', 'post'>;
export type Contract = ApiData<'/api/template/contract/{doc_type}', 'get'>;
export type DocumentSource = ApiData<'/api/template/sources/{doc_type}', 'get'>[number];
export type TemplateListQuery = ApiQuery<'/api/template', 'get'>;

const withTags = api.enhanceEndpoints({ addTagTypes: ['DocumentTemplate'] });

export const documentsApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    listTemplates: build.query<TemplateOut[], TemplateListQuery>({
      query: (params) => ({ url: '/template', params: { size: 200, ...params } }),
      transformResponse: (env) => unwrap<{ items: TemplateOut[] }>(env).items,
      providesTags: ['DocumentTemplate'],
    }),
    getContract: build.query<Contract, string>({
      query: (type) => ({ url: `/template/contract/${type}` }),
      transformResponse: (env) => unwrap<Contract>(env),
    }),
    createTemplate: build.mutation<TemplateOut, TemplateIn>({
      query: (body) => ({ url: '/template', method: 'POST', body }),
      transformResponse: (env) => unwrap<TemplateOut>(env),
      invalidatesTags: ['DocumentTemplate'],
    }),
    updateTemplate: build.mutation<TemplateOut, { id: number; body: TemplateUpdate }>({
      query: ({ id, body }) => ({ url: `/template/${id}`, method: 'PUT', body }),
      transformResponse: (env) => unwrap<TemplateOut>(env),
      invalidatesTags: ['DocumentTemplate'],
    }),
    deleteTemplate: build.mutation<void, number>({
      query: (id) => ({ url: `/template/${id}`, method: 'DELETE' }),
      invalidatesTags: ['DocumentTemplate'],
    }),
    duplicateTemplate: build.mutation<TemplateOut, number>({
      query: (id) => ({ url: `/template/${id}/duplicate`, method: 'POST' }),
      transformResponse: (env) => unwrap<TemplateOut>(env),
      invalidatesTags: ['DocumentTemplate'],
    }),
    setDefaultTemplate: build.mutation<{ template: TemplateOut; message: string }, number>({
      query: (id) => ({ url: `/template/${id}/default`, method: 'POST' }),
      transformResponse: (env) => ({ template: unwrap<TemplateOut>(env), message: (env as { message: string }).message }),
      invalidatesTags: ['DocumentTemplate'],
    }),
    renderTemplate: build.mutation<string, RenderIn & { sourceId?: number | null }>({
      query: ({ sourceId, ...body }) => ({ url: '/template/render', method: 'POST', body, params: sourceId ? { source_id: sourceId } : undefined }),
      transformResponse: (env) => unwrap<{ html: string }>(env).html,
    }),
    listDocumentSources: build.query<DocumentSource[], { type: string; search?: string }>({
      query: ({ type, search }) => ({ url: `/template/sources/${type}`, params: search ? { search } : undefined }),
      transformResponse: (env) => unwrap<DocumentSource[]>(env),
    }),
  }),
});

export const {
  useListTemplatesQuery,
  useGetContractQuery,
  useCreateTemplateMutation,
  useUpdateTemplateMutation,
  useDeleteTemplateMutation,
  useDuplicateTemplateMutation,
  useSetDefaultTemplateMutation,
  useRenderTemplateMutation,
  useListDocumentSourcesQuery,
} = documentsApi;

/** The server's PDF of an (unsaved) template with sample data (or a real document's): exactly what prints. */
export async function renderPdf(body: RenderIn, sourceId?: number | null): Promise<Blob> {
  const url = buildApiUrl('/template/render') + (sourceId ? `?source_id=${sourceId}` : '');
  const response = await globalThis.fetch(url, {
    method: 'POST',
    headers: buildHeaders(body, { Accept: 'application/pdf' }),
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    let detail = `Server responded with status: ${response.status}`;
    try {
      const json = (await response.json()) as { detail?: string };
      if (json.detail) detail = json.detail;
    } catch {
      // not JSON: keep the status sentence
    }
    throw apiError({ status: response.status, message: detail });
  }
  return response.blob();
}

export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
