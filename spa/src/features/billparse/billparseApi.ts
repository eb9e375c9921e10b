import { api, unwrap } from '@/lib/api/api';
import type { ApiBody, ApiData, Schemas } from '@/lib/api/types';

export type ParsedDoc = ApiData<'/api/parse_document', 'get'>['items'][number];
export type ParsedDetail = ApiData<'/api/parse_document/{parse_id}', 'get'>;
export type UploadResult = Schemas['BillParseUploadOut'];
export type Choices = ApiData<'/api/parse_document/choices', 'get'>;
export type ReviewIn = ApiBody<'/api/parse_document/{parse_id}', 'put'>;
export type CreatedBill = ApiData<'/api/parse_document/{parse_id}/create-bill', 'post'>;

interface DocPage {
  items: ParsedDoc[];
  total: number;
  page: number;
  size: number;
  pages: number;
}

const withTags = api.enhanceEndpoints({ addTagTypes: ['ParsedDoc'] });

export const billparseApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    uploadInvoices: build.mutation<UploadResult, File[]>({
      query: (files) => {
        const form = new FormData();
        for (const f of files) form.append('files', f);
        return { url: '/parse_document', method: 'POST', body: form };
      },
      transformResponse: (env) => unwrap<UploadResult>(env),
      invalidatesTags: ['ParsedDoc'],
    }),
    parsedDocs: build.query<DocPage, { batch?: string; page?: number; size?: number }>({
      query: (params) => ({ url: '/parse_document', params }),
      transformResponse: (env) => unwrap<DocPage>(env),
      providesTags: ['ParsedDoc'],
    }),
    parsedDoc: build.query<ParsedDetail, number>({
      query: (id) => ({ url: `/parse_document/${id}` }),
      transformResponse: (env) => unwrap<ParsedDetail>(env),
      providesTags: (_r, _e, id) => [{ type: 'ParsedDoc', id }],
    }),
    parseChoices: build.query<Choices, void>({
      query: () => ({ url: '/parse_document/choices' }),
      transformResponse: (env) => unwrap<Choices>(env),
    }),
    saveReview: build.mutation<ParsedDetail, { id: number; body: ReviewIn }>({
      query: ({ id, body }) => ({ url: `/parse_document/${id}`, method: 'PUT', body }),
      transformResponse: (env) => unwrap<ParsedDetail>(env),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'ParsedDoc', id }],
    }),
    createBillFromDoc: build.mutation<CreatedBill, { id: number; body: ReviewIn }>({
      query: ({ id, body }) => ({ url: `/parse_document/${id}/create-bill`, method: 'POST', body }),
      transformResponse: (env) => unwrap<CreatedBill>(env),
      invalidatesTags: ['ParsedDoc'],
    }),
  }),
});

export const {
  useUploadInvoicesMutation,
  useParsedDocsQuery,
  useParsedDocQuery,
  useParseChoicesQuery,
  useSaveReviewMutation,
  useCreateBillFromDocMutation,
} = billparseApi;

export const STATUS_LABELS: Record<string, string> = {
  queued: 'Queued',
  parsing: 'Reading…',
  parsed: 'Ready to review',
  failed: 'Could not read',
  created: 'Bill created',
};

export const isBusy = (status: string) => status === 'queued' || status === 'parsing';
