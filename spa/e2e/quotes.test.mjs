// Price quotes end to end (issue 12, parts 4 and 5; issue 23 §4b): compose a quote request on
// /price-quotes (the dialog and the page say where replies go), one supplier's price entered on the
// request's page as a phone quote, the other's answer arrives (recorded through the API here: the e2e server runs no worker, so the
// IMAP inbox path is covered by tenants/inbox/tests against a real dovecot), compare them against
// today's rack and accept the lowest into buying prices; the inbox screen's mailbox settings say why
// a connection fails. Desktop and phone shots.
//   E2E_BASE_URL (default http://127.0.0.1:8000); the server is started when none answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { DEMO, DESKTOP, PHONE, apiCaller, apiLogin, expectOk, launch, openPage, shot, unique, useSession } from './lib.mjs';

let server;
let browser;
let admin;
const api = apiCaller(() => admin);

before(async () => {
  server = await ensureServer();
  browser = await launch();
  admin = await apiLogin(DEMO.admin);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function created(path, body) {
  const r = await api(path, { method: 'POST', body: JSON.stringify(body) });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.data;
}

async function pick(page, testId, text) {
  const box = page.getByTestId(testId).getByRole('combobox');
  await box.click();
  await box.fill(text);
  await page.getByRole('option', { name: new RegExp(text, 'i') }).first().click();
}

describe('FuelDesk price quotes', { concurrency: false }, () => {
  test('compose a request, compare the answers, accept the lowest into buying prices', async () => {
    const tag = unique('Q').slice(-8).toUpperCase();
    const day = new Date().toLocaleDateString('en-CA');
    const product = await created('/product/products', { name: `Dyed Diesel ${tag}`, code: `DD${tag}`, sold_as: 'gallon' });
    const terminal = await created('/terminal', { name: `Baytown ${tag}`, terminal_code: `T-${tag}` });
    const gulf = await created('/supplier', { name: `Gulf ${tag}`, email: `gulf-${tag.toLowerCase()}@supplier.test` });
    const bayou = await created('/supplier', { name: `Bayou ${tag}`, email: `bayou-${tag.toLowerCase()}@supplier.test` });
    // Today's rack at that terminal: Gulf's buying price.
    await created('/buying-price', { supplier_id: gulf.id, terminal_id: terminal.id, product_id: product.id, price: '2.5000', effective_from: day });

    const { page } = await openPage(browser, { viewport: DESKTOP, allow: ['404', '409', '422'] });
    await useSession(page, admin, '/price-quotes');
    await page.getByRole('heading', { level: 1, name: 'Price Quotes' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'New quote request' }).click();
    const dialog = page.getByRole('dialog');
    await pick(page, 'quote-products', `Dyed Diesel ${tag}`);
    await pick(page, 'quote-terminals', `Baytown ${tag}`);
    await pick(page, 'quote-suppliers', `Gulf ${tag}`);
    await pick(page, 'quote-suppliers', `Bayou ${tag}`);
    await dialog.getByLabel('Quantity (gallons)').fill('7500');
    // The dialog says where the suppliers' replies will go (issue 23 §4b), warning when no mailbox
    // the inbox agent reads is connected.
    const destination = (await api('/price-quote/reply-address')).body.data;
    const note = dialog.getByTestId('reply-destination');
    await note.waitFor();
    assert.equal((await note.textContent()).trim(), destination.note);
    if (!destination.read_by_inbox) assert.match(destination.note, /Connect a mailbox|inbox polling is off/);
    await shot(page, 'quotes-compose-desktop');
    await dialog.getByRole('button', { name: 'Send request' }).click();
    const heading = page.getByRole('heading', { level: 1, name: /^Quote request QR-/ });
    await heading.waitFor({ timeout: 20_000 });
    const number = (await heading.textContent()).replace('Quote request ', '').trim();
    const requestId = Number(page.url().split('/').pop());
    assert.ok(requestId > 0);
    await page.getByText('No quote yet').waitFor();
    const replyTo = await page.getByTestId('reply-to').textContent();
    assert.ok(
      destination.address ? replyTo.includes(`Replies go to ${destination.address}`) : /asked for no reply address/.test(replyTo),
      replyTo,
    );

    // Gulf gives its price by phone: entered on the request's page.
    await page.getByRole('combobox', { name: 'Supplier' }).click();
    await page.getByRole('option', { name: `Gulf ${tag}` }).click();
    await page.getByLabel(`Dyed Diesel ${tag} · Baytown ${tag}`).fill('2.4810');
    await page.locator('button:has-text("Record quote"):not([disabled])').waitFor();
    await page.getByText('Record a quote given by phone').scrollIntoViewIfNeeded();
    await shot(page, 'quotes-phone-form-desktop');
    await page.getByRole('button', { name: 'Record quote' }).click();
    await page.getByText('Quote recorded').first().waitFor({ timeout: 15_000 });
    await page.getByTestId(`cell-${terminal.id}-${product.id}-${gulf.id}`).getByText('2.4810').waitFor({ timeout: 20_000 });
    // Bayou's reply email, verified in the inbox, makes the same quote.
    await created(`/price-quote/requests/${requestId}/quotes`, {
      supplier_id: bayou.id,
      lines: [{ product_id: product.id, terminal_id: terminal.id, price: '2.4630' }],
    });
    // A supplier who was not asked cannot slip a price in (it would show as "Lowest").
    const stranger = await created('/supplier', { name: `Stranger ${tag}`, email: `s-${tag.toLowerCase()}@supplier.test` });
    const refused = await api(`/price-quote/requests/${requestId}/quotes`, {
      method: 'POST',
      body: JSON.stringify({ supplier_id: stranger.id, lines: [{ product_id: product.id, terminal_id: terminal.id, price: '1.0000' }] }),
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.detail, `supplier_id: Stranger ${tag} was not asked in quote request ${number}.`);
    await page.reload();
    const bayouCell = page.getByTestId(`cell-${terminal.id}-${product.id}-${bayou.id}`);
    await bayouCell.getByText('2.4630').waitFor({ timeout: 20_000 });
    assert.equal(await bayouCell.getByText('Lowest').count(), 1);
    assert.equal(await page.getByTestId(`cell-${terminal.id}-${product.id}-${gulf.id}`).getByText('Lowest').count(), 0);
    await bayouCell.getByText('−0.0370 vs rack').waitFor();
    await shot(page, 'quotes-compare-desktop');

    await bayouCell.getByRole('button', { name: 'Accept' }).click();
    await page.getByText(`Buying price saved: Dyed Diesel ${tag} at Baytown ${tag}, 2.4630`).waitFor({ timeout: 15_000 });
    await bayouCell.getByText('Accepted').waitFor();
    const prices = await api(`/buying-price?page=1&size=100&supplier_id=${bayou.id}`);
    const rows = (prices.body.data?.items ?? []).filter((r) => (r.supplier?.id ?? r.supplier_id) === bayou.id);
    assert.equal(rows.length, 1, JSON.stringify(prices.body).slice(0, 400));
    assert.equal(Number(rows[0].price), 2.463);

    // The list shows the request with its two quotes; the phone layout holds.
    await page.setViewportSize(PHONE);
    await page.reload();
    await bayouCell.getByText('Accepted').waitFor({ timeout: 20_000 });
    await shot(page, 'quotes-compare-phone');
    await page.getByText('Record a quote given by phone').scrollIntoViewIfNeeded();
    await shot(page, 'quotes-phone-form-phone');
    await page.goto('/price-quotes');
    await page.getByRole('cell', { name: number }).waitFor({ timeout: 20_000 });
    await shot(page, 'quotes-list-phone');
  });

  test('the inbox screen: mailbox settings say why the connection fails', async () => {
    const { page } = await openPage(browser, { viewport: DESKTOP, allow: ['404', '409', '422'] });
    await useSession(page, admin, '/email/inbox');
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Set up mailbox', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('IMAP server').fill('127.0.0.1');
    await page.getByRole('combobox', { name: 'Security' }).click();
    await page.getByRole('option', { name: /None/ }).click();
    await dialog.getByLabel('Port').fill('9');
    await dialog.getByLabel('User name').fill('ap@demo.test');
    await dialog.getByLabel('Password').fill('not-a-real-password');
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    const result = page.getByTestId('mailbox-test-result');
    await result.waitFor({ timeout: 40_000 });
    assert.match(await result.textContent(), /Cannot reach the mail server 127\.0\.0\.1:9/);
    await shot(page, 'inbox-settings-desktop');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.setViewportSize(PHONE);
    await shot(page, 'inbox-phone');
  });
});
