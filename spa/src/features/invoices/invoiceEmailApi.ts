import { api, unwrap } from '@/lib/api/api';
import type { EmailDraft, EmailedMark, SentEmailRow } from '@/components/email/documentEmailApi';

/** The spec's default messages (section 8) of the invoice's email actions. */
export const INVOICE_EMAIL_MSG = {
  prepare: 'Failed to prepare invoice email',
  send: 'Failed to send invoice email',
  mark: 'Failed to mark invoice as email sent',
} as const;

function pdfForm(pdf: Blob, name: string): FormData {
  const form = new FormData();
  form.append('invoice_pdf', pdf, name);
  return form;
}

// 'Invoice' and 'JobLog' are the invoice view's tags: marking it emailed refreshes the view and its job log.
const withTags = api.enhanceEndpoints({ addTagTypes: ['Email', 'Invoice', 'JobLog'] });

export const invoiceEmailApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    prepareInvoiceEmail: build.mutation<EmailDraft[], { id: number; includeDeliveryTicket: boolean; pdf: Blob }>({
      query: ({ id, includeDeliveryTicket, pdf }) => ({
        url: `/invoice/${id}/email`,
        method: 'POST',
        params: { include_delivery_ticket: includeDeliveryTicket },
        body: pdfForm(pdf, `invoice-${id}.pdf`),
      }),
      transformResponse: (env) => unwrap<EmailDraft[]>(env),
    }),
    sendInvoiceEmail: build.mutation<SentEmailRow[], { id: number; includeDeliveryTicket: boolean; pdf: Blob; idempotencyKey: string }>({
      query: ({ id, includeDeliveryTicket, pdf, idempotencyKey }) => ({
        url: `/invoice/${id}/send-email`,
        method: 'POST',
        params: { include_delivery_ticket: includeDeliveryTicket, idempotency_key: idempotencyKey },
        body: pdfForm(pdf, `invoice-${id}.pdf`),
      }),
      transformResponse: (env) => unwrap<SentEmailRow[]>(env),
      invalidatesTags: ['Email', 'JobLog'],
    }),
    markInvoiceEmailed: build.mutation<EmailedMark, number>({
      query: (id) => ({ url: `/invoice/${id}/email-sent`, method: 'PUT' }),
      transformResponse: (env) => unwrap<EmailedMark>(env),
      invalidatesTags: (_r, _e, id) => [{ type: 'Invoice', id }, 'JobLog', 'Email'],
    }),
  }),
});

export const { usePrepareInvoiceEmailMutation, useSendInvoiceEmailMutation, useMarkInvoiceEmailedMutation } = invoiceEmailApi;
