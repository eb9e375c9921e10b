// Purchasing end to end (issue 12, issue 15 part 4): raise a purchase order (cost from the buying
// price), place it, receive it (BOL, gross/net), enter the supplier's bill from the order, see the
// three-way match, approve it; the screens at desktop and phone width.
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

async function selectOption(page, label, text) {
  const box = page.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(text);
  await page.getByRole('option', { name: new RegExp(text, 'i') }).first().click();
}

describe('FuelDesk purchasing', { concurrency: false }, () => {
  test('raise a purchase order, receive it, enter the bill matched to it, approve it', async () => {
    const { page, errors } = await openPage(browser, { viewport: DESKTOP, allow: ['409', 'status of 4'] });
    // A supplier at a terminal with a buying price in force today (the demo seeds them).
    const pos = await api('/purchase-order?size=100&search=DEMO-PO-1');
    assert.equal(pos.status, 200, JSON.stringify(pos.body));
    const demo = pos.body.data.items[0];
    assert.ok(demo, 'the demo seeded its purchase orders');
    const supplier = demo.supplier.name;
    const terminal = demo.terminal.name;
    const reference = unique('E2E-');

    await useSession(page, admin, '/purchase-order');
    await page.getByRole('heading', { level: 1, name: 'Purchase orders' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'New purchase order' }).click();
    await page.getByRole('heading', { level: 1, name: 'New purchase order' }).waitFor();
    await selectOption(page, 'Supplier', supplier);
    await selectOption(page, 'Terminal', terminal);
    await page.getByLabel('Supplier reference').fill(reference);
    await selectOption(page, 'Product 1', 'Clear Diesel');
    await page.getByLabel('Quantity').first().fill('8000');
    // The cost defaults to the buying price in force.
    await page.getByTestId('default-cost').filter({ hasText: 'Buying price $' }).waitFor({ timeout: 20_000 });
    await shot(page, 'purchase-order-new-desktop');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByRole('heading', { level: 1, name: /Purchase order PO-\d+/ }).waitFor({ timeout: 20_000 });
    const number = (await page.getByRole('heading', { level: 1 }).textContent()).replace('Purchase order ', '').trim();

    await page.getByRole('button', { name: 'Place order' }).click();
    await page.getByRole('button', { name: 'Receive' }).click();
    await page.getByLabel('Bill of lading number').fill(`BOL-${reference}`);
    await page.getByLabel('Gross Clear Diesel').fill('8010');
    await page.getByLabel('Net Clear Diesel').fill('7950');
    await page.getByRole('button', { name: 'Record receipt' }).click();
    await page.getByTestId('receipt').filter({ hasText: `BOL-${reference}` }).waitFor({ timeout: 20_000 });
    await page.getByText('Received', { exact: true }).first().waitFor();
    await shot(page, 'purchase-order-received-desktop');

    // The bill, prefilled from the order: what was received, at the ordered cost.
    await page.getByRole('button', { name: 'Enter bill' }).click();
    await page.getByRole('heading', { level: 1, name: 'Enter a bill' }).waitFor();
    await page.getByLabel('Quantity').first().and(page.locator('input')).inputValue().then((v) => assert.equal(v, '7950'));
    await page.getByLabel('Bill number').fill(`INV-${reference}`);
    await page.getByRole('button', { name: 'Create bill' }).click();
    await page.getByRole('heading', { level: 1, name: `Bill INV-${reference}` }).waitFor({ timeout: 20_000 });
    await page.getByRole('table', { name: 'Three-way match' }).waitFor();
    const row = page.getByTestId('match-line').first();
    assert.equal(await row.getAttribute('data-ok'), 'yes');
    await row.getByText('Within tolerance').waitFor();
    await page.getByText('Matched', { exact: true }).first().waitFor();
    await shot(page, 'bill-matched-desktop');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByText('Approved', { exact: true }).first().waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Mark paid' }).waitFor();

    // The order is billed, and lists its bill.
    await page.getByRole('link', { name: number }).click();
    await page.getByRole('heading', { level: 1, name: `Purchase order ${number}` }).waitFor();
    await page.getByText('Billed', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: `INV-${reference}` }).waitFor();
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('an out-of-tolerance bill is highlighted; the lists at phone width', async () => {
    const pos = await api('/purchase-order?size=100&search=DEMO-PO-3');
    const po = pos.body.data.items[0];
    assert.ok(po);
    const detail = (await api(`/purchase-order/${po.id}`)).body.data;
    const line = detail.lines[0];
    const made = await api('/bill', {
      method: 'POST',
      body: JSON.stringify({
        supplier_id: po.supplier_id,
        bill_number: unique('OVER-'),
        bill_date: po.order_date,
        purchase_order_id: po.id,
        lines: [{ product_id: line.product_id, quantity: (Number(line.received_net) + 500).toFixed(3), unit_price: (Number(line.unit_cost) + 0.05).toFixed(4) }],
      }),
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const bill = made.body.data;
    assert.equal(bill.match_status, 'out_of_tolerance');

    const { page, errors } = await openPage(browser, { viewport: DESKTOP, allow: ['409', 'status of 4'] });
    await useSession(page, admin, `/purchase-order/bills/${bill.id}`);
    await page.getByRole('heading', { level: 1, name: `Bill ${bill.bill_number}` }).waitFor({ timeout: 20_000 });
    const row = page.getByTestId('match-line').first();
    assert.equal(await row.getAttribute('data-ok'), 'no');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByText(/is out of tolerance against its purchase order \(line 1/).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Approve with override' }).waitFor();
    await shot(page, 'bill-out-of-tolerance-desktop');
    assert.deepEqual(errors, []);
    await page.context().close();
    // Void it so the demo order stays billable.
    await api(`/bill/${bill.id}/void`, { method: 'POST', body: '{}' });

    const phone = await openPage(browser, { viewport: PHONE });
    await useSession(phone.page, admin, '/purchase-order');
    await phone.page.getByRole('heading', { level: 1, name: 'Purchase orders' }).waitFor({ timeout: 20_000 });
    await phone.page.getByText(/PO-\d+/).first().waitFor();
    await shot(phone.page, 'purchase-order-list-phone');
    await useSession(phone.page, admin, `/purchase-order/${po.id}`);
    await phone.page.getByRole('heading', { level: 1, name: `Purchase order ${po.number}` }).waitFor({ timeout: 20_000 });
    await shot(phone.page, 'purchase-order-form-phone');
    await useSession(phone.page, admin, `/purchase-order/bills/${bill.id}`);
    await phone.page.getByRole('heading', { level: 1, name: `Bill ${bill.bill_number}` }).waitFor({ timeout: 20_000 });
    await shot(phone.page, 'bill-form-phone');
    assert.deepEqual(phone.errors, []);
    await phone.context.close();
  });
});
