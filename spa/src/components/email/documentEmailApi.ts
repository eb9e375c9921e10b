import { api, unwrap } from '@/lib/api/api';
import { apiError, isApiError, MSG_NETWORK } from '@/lib/api/errors';
import { buildHeaders } from '@/lib/api/http';
import { areaForPath, handleUnauthorized } from '@/lib/api/unauthorized';
import { buildApiUrl } from '@/lib/api/url';
import type { ApiBody, Schemas } from '@/lib/api/types';

/** A prepared email (the server's draft), in the send payload's shape. */
export type EmailDraft = Schemas['MailDraftOut'];
export type SentEmailRow = Schemas['EmailOut'];
export type EmailedMark = Schemas['MailEmailedOut'];
export type EmailPayload = ApiBody<'/api/email', 'post'>[number];

/** The spec's default messages (section 8) when the answer carries neither detail nor message. */
export const MSG = {
  send: 'Failed to send email',
  pdf: 'Failed to render the PDF',
} as const;

// 'JobLog': a sent email is a job of the log.
const withTags = api.enhanceEndpoints({ addTagTypes: ['Email', 'JobLog'] });

/** The generic part of emailing a document: send the (edited) drafts. Each document's feature injects
 * its own prepare and mark-as-sent endpoints (features/invoices/invoiceEmailApi.ts,
 * features/sales/ticketEmailApi.ts). */
export const documentEmailApi = withTags.injectEndpoints({
  endpoints: (build) => ({
    sendEmails: build.mutation<{ rows: SentEmailRow[]; message: string }, EmailPayload[]>({
      query: (body) => ({ url: '/email/', method: 'POST', body }),
      transformResponse: (env) => ({ rows: unwrap<SentEmailRow[]>(env), message: (env as { message?: string }).message ?? '' }),
      invalidatesTags: ['Email', 'JobLog'],
    }),
  }),
});

export const { useSendEmailsMutation } = documentEmailApi;

/** The server's PDF of a real document printed with the company's default template. */
export async function fetchDocumentPdf(type: 'invoice' | 'delivery_ticket', id: number): Promise<Blob> {
  const path = `/template/print/${type}/${id}`;
  let response: Response;
  try {
    response = await globalThis.fetch(buildApiUrl(path), { headers: buildHeaders(undefined, { Accept: 'application/pdf' }) });
  } catch {
    throw apiError({ status: 'FETCH_ERROR', message: MSG_NETWORK });
  }
  if (!response.ok) {
    let detail = `Server responded with status: ${response.status}`;
    try {
      const json = (await response.json()) as { detail?: string; message?: string };
      detail = json.detail || json.message || detail;
    } catch {
      // not JSON: keep the status sentence
    }
    const err = apiError({ status: response.status, message: detail });
    if (response.status === 401) handleUnauthorized(err.message, areaForPath(path));
    throw err;
  }
  return response.blob();
}

/** Spec section 8: the answer's detail, then its message, else the default. */
export function emailErrorText(err: unknown, fallback: string): string {
  if (isApiError(err)) return err.message || fallback;
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}

/** Edited drafts → the send payload; one email to all recipients merges them into one. */
export function draftsToPayload(drafts: EmailDraft[], oneForAll: boolean, idempotencyKey: string): EmailPayload[] {
  const base = (d: EmailDraft, i: number): EmailPayload => ({
    category: d.category,
    parent_id: d.parent_id,
    sender_email: d.sender_email || null,
    sender_name: d.sender_name || null,
    recipient_email: d.recipient_email,
    recipient_name: d.recipient_name || null,
    subject: d.subject,
    body: d.body,
    attachments: d.attachments.map((a) => ({ file_key: a.file_key, file_name: a.file_name })),
    reply_to: d.reply_to || null,
    cc: d.cc,
    bcc: d.bcc,
    one_per_recipient: !oneForAll,
    idempotency_key: `${idempotencyKey}-${i}`,
  });
  if (!oneForAll || drafts.length < 2) return drafts.map(base);
  const [first] = drafts;
  const merged = base(first, 0);
  merged.recipient_email = drafts.map((d) => d.recipient_email).join(', ');
  merged.recipient_name = null;
  return [merged];
}

/** "Name <a@x>, b@y" → [{email, name}] (the server parses again; this is for editing). */
export function parseAddressField(value: string): Array<{ email: string; name: string }> {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^(.*)<([^>]+)>$/.exec(entry);
      const email = (m?.[2] ?? entry).trim();
      const name = (m?.[1] ?? '').trim().replace(/^"|"$/g, '');
      return { email, name: name || email.split('@')[0] || '' };
    });
}

export function formatAddressField(list: Array<{ email: string; name?: string | null }>): string {
  return list.map((a) => (a.name && a.name !== a.email.split('@')[0] ? `${a.name} <${a.email}>` : a.email)).join(', ');
}
