import { api, unwrap } from '@/lib/api/api';
import type { ApiBody, ApiData } from '@/lib/api/types';

export type Ticket = ApiData<'/api/delivery-ticket/generate', 'get'>[number];
export type Entry = ApiData<'/api/delivery-ticket/entry/{sales_order_id}', 'get'>;
export type EntryLine = Entry['lines'][number];
export type EntryBody = ApiBody<'/api/delivery-ticket/entry/{sales_order_id}', 'post'>;
export type EntryLineBody = EntryBody['lines'][number];

/** The ticket document (tenants/documents contract `delivery_ticket`), as the PDF prints it. */
export interface TicketDocument {
  company: { name: string; address: string[]; phone: string; email: string; website: string; logo: string };
  customer: { name: string; account_number: string; address: string[]; phone: string };
  ship_to: { name?: string; address?: string[] };
  document: {
    number: string;
    title: string;
    date: string | null;
    order_number: string;
    po_number: string;
    status: string;
    notes: string;
    delivered_at: string | null;
    driver: string;
    truck: string;
  };
  lines: {
    line_no: number;
    product_code: string;
    product_name: string;
    unit: string;
    quantity_ordered: string | null;
    quantity_delivered: string | null;
    gross_volume: string | null;
    net_volume: string | null;
    temperature: string | null;
    meter_start: string | null;
    meter_end: string | null;
    tank: string;
  }[];
  totals: { gross_volume: string | null; net_volume: string | null };
  signature: { signer_name: string; signed_at: string | null; image: string; location: string; photos: string[] };
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['DeliveryTicket', 'DeliveryEntry'] });

export const deliveryApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    ticketDocument: build.query<TicketDocument, number>({
      query: (id) => ({ url: `/delivery-ticket/${id}/document` }),
      transformResponse: (env) => unwrap<TicketDocument>(env),
      providesTags: (_r, _e, id) => [{ type: 'DeliveryTicket', id }],
    }),
    // GET /{id} answers the ticket's JSON (its PDF only when asked for): the same DeliveryTicketOut.
    ticket: build.query<Ticket, number>({
      query: (id) => ({ url: `/delivery-ticket/${id}` }),
      transformResponse: (env) => unwrap<Ticket>(env),
      providesTags: (_r, _e, id) => [{ type: 'DeliveryTicket', id }],
    }),
    deliveryEntry: build.query<Entry, number>({
      query: (orderId) => ({ url: `/delivery-ticket/entry/${orderId}` }),
      transformResponse: (env) => unwrap<Entry>(env),
      providesTags: (_r, _e, id) => [{ type: 'DeliveryEntry', id }],
    }),
    recordDelivery: build.mutation<Ticket[], { orderId: number; body: EntryBody }>({
      query: ({ orderId, body }) => ({ url: `/delivery-ticket/entry/${orderId}`, method: 'POST', body }),
      transformResponse: (env) => unwrap<Ticket[]>(env),
      invalidatesTags: (_r, _e, { orderId }) => [{ type: 'DeliveryEntry', id: orderId }, 'DeliveryTicket'],
    }),
  }),
});

export const { useTicketDocumentQuery, useTicketQuery, useDeliveryEntryQuery, useRecordDeliveryMutation } = deliveryApi;
