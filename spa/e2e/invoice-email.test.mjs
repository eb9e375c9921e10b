// The invoice's PDF / Email toolbar through the real server: prepare the drafts (one per contact
// subscribed to invoices), edit one (subject, cc as 'Name <address>'), drop another, send through
// the outbox, and the invoice is marked emailed; the history lists the email. Demo company,
// its delivered order DEMO-1008 invoiced. Screenshots at desktop and phone width in spa/artifacts/.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { BASE_URL, DEMO, PHONE, apiLogin, launch, openPage, shot, unique, useSession } from './lib.mjs';

let server;
let browser;
let session;

async function api(path, { method = 'GET' } = {}) {
  const r = await fetch(`${BASE_URL}/api${path}`, { method, headers: { Authorization: `Bearer ${session.access_token}` } });
  return { status: r.status, body: await r.json() };
}

async function demoInvoice() {
  const orders = await api('/sales-order/sales-orders?search=DEMO-1008');
  const order = orders.body.data.items[0];
  assert.ok(order, 'the demo has its delivered order DEMO-1008');
  const r = await api(`/invoice/create?sales_order_id=${order.id}`, { method: 'POST' });
  if (r.status === 200) return r.body.data;
  const list = await api('/invoice?size=100');
  const found = list.body.data.items.find((i) => i.sales_order_id === order.id);
  assert.ok(found, `an invoice of DEMO-1008: ${r.status} ${JSON.stringify(r.body)}`);
  return found;
}

before(async () => {
  server = await ensureServer();
  browser = await launch();
  session = await apiLogin(DEMO.admin);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('invoice email', { concurrency: false }, () => {
  test('prepare the drafts, edit them, send, the invoice is marked emailed', async () => {
    const invoice = await demoInvoice();
    const { page, errors, context } = await openPage(browser);
    await useSession(page, session, `/invoice/${invoice.id}`);
    const toolbar = page.getByTestId('invoice-document-actions');
    await toolbar.waitFor();
    await toolbar.getByRole('button', { name: 'Email' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Email invoice ${invoice.invoice_no}`).waitFor();
    const drafts = dialog.getByTestId('email-draft');
    await drafts.first().waitFor({ timeout: 30_000 });
    const count = await drafts.count();
    assert.ok(count >= 1, 'at least one draft');
    assert.match(await drafts.first().getByLabel('Subject', { exact: true }).inputValue(), new RegExp(invoice.invoice_no));
    await drafts.first().getByText(new RegExp(`invoice-${invoice.id}-.*\\.pdf`)).waitFor();
    await shot(page, 'e2e-invoice-email-dialog-desktop');

    const subject = unique('Your invoice ');
    await drafts.first().getByLabel('Subject', { exact: true }).fill(subject);
    await drafts.first().getByLabel('Cc', { exact: true }).fill('Boss Person <boss@e2e.fueldesk.test>, audit@e2e.fueldesk.test');
    while ((await drafts.count()) > 1) await drafts.nth(1).getByRole('button', { name: 'Remove' }).click();
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('1 email queued for sending').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const history = await api(`/email/?category=invoice&parent_id=${invoice.id}&size=50`);
    const sent = history.body.data.items.find((e) => e.subject === subject);
    assert.ok(sent, 'the email is in the history');
    assert.deepEqual(sent.cc, [
      { email: 'boss@e2e.fueldesk.test', name: 'Boss Person' },
      { email: 'audit@e2e.fueldesk.test', name: 'audit' },
    ]);
    assert.match(sent.attachments[0].file_name, new RegExp(`^invoice-${invoice.id}-`));
    const after = await api(`/invoice/${invoice.id}`);
    assert.ok(after.body.data.email_sent_at, 'the invoice is marked emailed');
    assert.deepEqual(errors, [], errors.join('\n'));
    await context.close();

    // The delivery ticket's email on the sales order: drafts to the contacts subscribed to tickets
    // (else the billing email), the ticket rendered by the server and attached.
    const ticketPage = await openPage(browser);
    await useSession(ticketPage.page, session, `/sales-order/${invoice.sales_order_id}`);
    await ticketPage.page.getByTestId('ticket-email-action').click();
    const ticketDrafts = ticketPage.page.getByRole('dialog').getByTestId('email-draft');
    await ticketDrafts.first().waitFor({ timeout: 30_000 });
    await ticketDrafts.first().getByText(/^Cajun-Marine-Services-DT-.*\.pdf/).waitFor();
    await shot(ticketPage.page, 'e2e-ticket-email-dialog-desktop');
    await ticketPage.page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(ticketPage.errors, [], ticketPage.errors.join('\n'));
    await ticketPage.context.close();

    const phone = await openPage(browser, { viewport: PHONE });
    await useSession(phone.page, session, `/invoice/${invoice.id}`);
    await phone.page.getByTestId('invoice-document-actions').getByRole('button', { name: 'Email' }).click();
    await phone.page.getByTestId('email-draft').first().waitFor({ timeout: 30_000 });
    await shot(phone.page, 'e2e-invoice-email-dialog-phone');
    await phone.context.close();
  });
});
