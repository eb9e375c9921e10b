import { api, unwrap } from '@/lib/api/api';
import type { EmailDraft, EmailedMark } from '@/components/email/documentEmailApi';

/** The spec's default messages (section 8) of the delivery ticket's email actions. */
export const TICKET_EMAIL_MSG = {
  prepare: 'Failed to prepare delivery ticket email',
  send: 'Failed to send delivery ticket email',
  mark: 'Failed to mark delivery ticket as email sent',
} as const;

export const ticketEmailApi = api.injectEndpoints({
  endpoints: (build) => ({
    prepareTicketEmail: build.mutation<EmailDraft[], { salesOrderId: number; splitByPo: boolean }>({
      query: ({ salesOrderId, splitByPo }) => ({
        url: '/delivery-ticket/email',
        method: 'POST',
        params: { sales_order_id: salesOrderId, split_by_po: splitByPo },
      }),
      transformResponse: (env) => unwrap<EmailDraft[]>(env),
    }),
    markTicketsEmailed: build.mutation<EmailedMark, number>({
      query: (salesOrderId) => ({ url: '/delivery-ticket/email-sent', method: 'PUT', params: { sales_order_id: salesOrderId } }),
      transformResponse: (env) => unwrap<EmailedMark>(env),
    }),
  }),
});

export const { usePrepareTicketEmailMutation, useMarkTicketsEmailedMutation } = ticketEmailApi;
