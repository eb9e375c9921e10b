// Delivery tickets (issue 10): the office types a paper ticket into a demo order on the truck
// (/delivery-order-entry/{id}: meters and temperature, net gallons computed live), records it, lands on
// the printable ticket (/delivery-ticket/{id}, no shell) with the net gallons, and the same ticket
// downloads as a PDF. Screens at desktop and phone width.
//   E2E_BASE_URL (default http://127.0.0.1:8000); the server is started when none answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { BASE_URL, DEMO, PHONE, apiCaller, apiLogin, expectOk, launch, openPage, shot, useSession } from './lib.mjs';

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


/** An order on a truck (assigned or in delivery) with a diesel line: the demo's, or one made now. */
async function orderOnTruck() {
  for (const status of ['assigned', 'in_delivery']) {
    const list = await api(`/sales-order/sales-orders?status=${status}&size=50`);
    expectOk(list, 'orders');
    if (list.body.data.items.length) return list.body.data.items[list.body.data.items.length - 1];
  }
  const customer = (await api('/customer/customers?search=Bayou&size=5')).body.data.items[0];
  const products = (await api('/product/products/all')).body.data;
  const diesel = products.find((p) => p.code === 'ULSD-CLR') ?? products[0];
  const drivers = (await api('/driver/all')).body.data;
  const day = new Date().toISOString().slice(0, 10);
  const trucks = (await api(`/dispatch/day?date=${day}`)).body.data.trucks;
  const made = await api('/sales-order/sales-orders', {
    method: 'POST',
    body: JSON.stringify({ customer_id: customer.id, planned_date: day, line_items: [{ product_id: diesel.id, quantity: '600' }] }),
  });
  expectOk(made, 'create order');
  const id = made.body.data.id;
  expectOk(await api(`/sales-order/sales-orders/${id}/status?status=verified&override_credit=true&reason=e2e`, { method: 'PUT' }), 'verify');
  expectOk(await api(`/sales-order/sales-orders/${id}/assign`, { method: 'POST', body: JSON.stringify({ driver_id: drivers[0].id, truck_id: trucks[0].truck.id }) }), 'assign');
  return made.body.data;
}

describe('delivery ticket', () => {
  test('office entry of a paper ticket, then the printable ticket and its PDF', async () => {
    const order = await orderOnTruck();
    const entry = await api(`/delivery-ticket/entry/${order.id}`);
    expectOk(entry, 'entry view');
    const { context, page, errors } = await openPage(browser);
    await useSession(page, admin, `/delivery-order-entry/${order.id}`);
    await page.getByRole('heading', { name: new RegExp(`Delivery entry · ${order.number}`) }).waitFor({ timeout: 30_000 });
    for (const line of entry.body.data.lines) {
      const start = 10_000;
      await page.getByLabel(`Meter start — ${line.product_name}`).fill(String(start));
      await page.getByLabel(`Meter end — ${line.product_name}`).fill(String(start + Number(line.ordered_quantity)));
      if (line.vcf_group !== 'none') await page.getByLabel(`Temperature — ${line.product_name}`).fill('80');
    }
    const first = entry.body.data.lines[0];
    if (first.vcf_group !== 'none') {
      const net = await page.getByTestId(`net-${first.line_item_id}`).textContent();
      assert.ok(Number(net.replace(/,/g, '')) < Number(first.ordered_quantity), `net ${net} is below gross at 80 °F`);
    }
    await page.getByLabel('Paper ticket number').fill('PAPER-E2E');
    await page.getByLabel('Signed by').fill('Pat Receiver');
    await shot(page, 'delivery-entry-desktop');
    await page.getByRole('button', { name: 'Record delivery' }).click();
    await page.waitForURL(/\/delivery-ticket\/\d+$/, { timeout: 30_000 });
    const ticketId = Number(page.url().split('/').pop());
    await page.getByRole('button', { name: 'Download PDF' }).waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId('rail').count(), 0, 'no shell around the ticket');
    const sheet = page.getByRole('article');
    await sheet.getByText('Pat Receiver').waitFor();
    await sheet.getByText(/Paper ticket PAPER-E2E/).waitFor();
    // its timeline, below the sheet: made, then delivered by the signed-in user
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByText('create: open').waitFor();
    await timeline.getByText(/deliver: open → delivered/).waitFor();
    await shot(page, 'delivery-ticket-desktop');
    await page.setViewportSize(PHONE);
    await shot(page, 'delivery-ticket-phone');

    const ticket = await api(`/delivery-ticket/${ticketId}`);
    expectOk(ticket, 'ticket');
    assert.equal(ticket.body.data.status, 'delivered');
    const after = await api(`/sales-order/sales-orders/${order.id}`);
    assert.equal(after.body.data.status, 'delivered');
    const pdf = await fetch(`${BASE_URL}/api/delivery-ticket/${ticketId}`, {
      headers: { Authorization: `Bearer ${admin.access_token}`, Accept: 'application/pdf' },
    });
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    assert.ok(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString() === '%PDF-');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
