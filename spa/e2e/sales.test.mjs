// Sales orders end to end (issue 9): an order with two products and a fee, priced by the engine with
// its explanation, verified; assigned on the dispatch center by drag and drop; a card moved on the
// board and an illegal drag refused; the three screens at desktop and phone width.
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

/** Drags `source` onto `target` with the mouse, in steps, as a person would (dnd-kit's pointer sensor). */
async function dragTo(page, source, target) {
  const a = await source.boundingBox();
  const b = await target.boundingBox();
  assert.ok(a && b, 'both ends of the drag are visible');
  await page.mouse.move(a.x + a.width / 2, a.y + Math.min(20, a.height / 2));
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + 25, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + Math.min(60, b.height / 2), { steps: 20 });
  await page.mouse.up();
}

async function selectOption(page, label, text) {
  const box = page.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(text);
  await page.getByRole('option', { name: new RegExp(text, 'i') }).first().click();
}

describe('FuelDesk sales orders', { concurrency: false }, () => {
  test('an order with two products and a fee: priced, verified, assigned by drag and drop, moved on the board', async () => {
    const { page, errors } = await openPage(browser, { viewport: DESKTOP, allow: ['409', '422', 'status of 4'] });
    const po = unique('PO-E2E-');
    const fees = await api('/fee?page=1&size=100');
    if (fees.body.data.total === 0) {
      const made = await api('/fee', { method: 'POST', body: JSON.stringify({ name: 'Delivery', fee_code: 'DEL', fee_type: 'flat', rate: '45.00' }) });
      assert.equal(made.status, 201, JSON.stringify(made.body));
    }
    const day = new Date().toISOString().slice(0, 10);
    await useSession(page, admin, '/sales-order/new');
    await page.getByRole('heading', { level: 1, name: 'New sales order' }).waitFor({ timeout: 20_000 });
    await selectOption(page, 'Customer', 'Bayou City Builders');
    await page.getByLabel('PO number').fill(po);
    await selectOption(page, 'Product 1', 'Clear Diesel');
    await page.getByLabel('Quantity').first().fill('400');
    await page.getByRole('button', { name: 'Add product' }).click();
    await selectOption(page, 'Product 2', 'Unleaded 87');
    await page.getByLabel('Quantity').nth(1).fill('300');
    // live price from the engine, with its explanation
    await page.getByTestId('line-unit-price').first().filter({ hasText: '/u' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'How this price is made' }).first().click();
    // every basis sentence of the engine: rule, rack, list price, or the customer's contract price
    await page.getByText(/list price|rule|rack|contract price|fixed earlier/i).first().waitFor();
    await page.getByTestId('line-unit-price').nth(1).filter({ hasText: '/u' }).waitFor({ timeout: 20_000 });
    await page.waitForTimeout(400);
    await shot(page, 'sales-order-new-desktop');
    await page.keyboard.press('Escape');
    // a typed price: the server prices it (GET /customer-price/explain?unit_price_override=), the browser computes nothing
    const previews = [];
    page.on('request', (r) => { if (r.url().includes('unit_price_override=2.5')) previews.push(r.url()); });
    await page.getByLabel('Price override').nth(1).fill('2.5');
    await page.getByTestId('line-unit-price').nth(1).filter({ hasText: '2.5000 /u' }).waitFor({ timeout: 20_000 });
    await page.getByText('$750.00').first().waitFor({ timeout: 20_000 });
    assert.ok(previews.length > 0, 'the typed price was priced by the server');
    await shot(page, 'sales-order-typed-price-desktop');
    await page.getByRole('button', { name: 'Add fee' }).click();
    await page.getByRole('combobox', { name: 'Fee 1' }).click();
    await page.getByRole('option').first().click();
    await page.getByRole('button', { name: 'Create draft order' }).click();
    await page.getByRole('heading', { level: 1, name: /^Sales order SO-/ }).waitFor({ timeout: 20_000 });
    const number = (await page.getByRole('heading', { level: 1 }).textContent()).replace('Sales order ', '').trim();
    const list = await api(`/sales-order/sales-orders?search=${po}`);
    assert.equal(list.body.data.total, 1);
    const order = (await api(`/sales-order/sales-orders/${list.body.data.items[0].id}`)).body.data;
    assert.equal(order.line_items.length, 2);
    assert.equal(order.fees.length, 1);
    assert.ok(order.line_items.every((l) => Number(l.unit_price) > 0), 'both lines priced');
    assert.deepEqual(
      [order.line_items[1].unit_price_override, order.line_items[1].unit_price, order.line_items[1].amount],
      ['2.5000', '2.5000', '750.00'],
      'the typed price is saved as unit_price_override and priced by the engine',
    );
    assert.ok(Number(order.total) > 0);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('button', { name: 'Back to draft' }).waitFor({ timeout: 20_000 });
    await shot(page, 'sales-order-verified-desktop');

    // the dispatch center: drag the order onto a truck
    await page.goto('/dispatch-center');
    await page.getByRole('heading', { level: 1, name: 'Dispatch Center' }).waitFor();
    const card = page.getByTestId(`dispatch-order-${number}`);
    await card.waitFor({ timeout: 20_000 });
    // B-201 (two empty 1,400 gal compartments): the demo driver's day fills T-102 today.
    const truck = page.getByTestId('dispatch-truck-B-201');
    await truck.scrollIntoViewIfNeeded();
    await dragTo(page, card, truck);
    const driverDialog = page.getByRole('dialog');
    if (await driverDialog.isVisible().catch(() => false)) {
      await page.getByRole('combobox', { name: 'Driver' }).click();
      await page.getByRole('option').first().click();
      await page.getByRole('button', { name: 'Assign' }).click();
    }
    await truck.getByTestId(`dispatch-order-${number}`).waitFor({ timeout: 20_000 }).catch(async (e) => {
      await shot(page, 'dispatch-center-failed');
      throw e;
    });
    const assigned = (await api(`/sales-order/sales-orders/${order.id}`)).body.data;
    assert.equal(assigned.status, 'assigned');
    assert.equal(assigned.truck.asset_number, 'B-201');
    await shot(page, 'dispatch-center-desktop');

    // the board: a legal move (assigned → verified: unassign) and an illegal one (→ draft)
    await page.goto('/sales-order-board');
    await page.getByRole('heading', { level: 1, name: 'Sales Order Board' }).waitFor();
    const boardCard = page.getByTestId(`board-card-${number}`);
    await boardCard.waitFor({ timeout: 20_000 });
    await dragTo(page, boardCard, page.getByTestId('board-column-draft'));
    await page.getByText(`${number} cannot move from Assigned to Draft`).waitFor({ timeout: 10_000 });
    assert.equal((await api(`/sales-order/sales-orders/${order.id}`)).body.data.status, 'assigned');
    await dragTo(page, page.getByTestId(`board-card-${number}`), page.getByTestId('board-column-verified'));
    await page.getByTestId('board-column-verified').getByTestId(`board-card-${number}`).waitFor({ timeout: 20_000 });
    assert.equal((await api(`/sales-order/sales-orders/${order.id}`)).body.data.status, 'verified');
    await shot(page, 'sales-order-board-desktop');
    await page.getByRole('button', { name: 'Full screen' }).click();
    await page.getByRole('button', { name: 'Exit full screen' }).waitFor();
    await shot(page, 'sales-order-board-fullscreen');
    await page.getByRole('button', { name: 'Exit full screen' }).click();

    await page.goto('/sales-order');
    await page.getByRole('heading', { level: 1, name: 'Sales orders' }).waitFor();
    await page.getByText(number).first().waitFor({ timeout: 20_000 });
    await shot(page, 'sales-order-list-desktop');
    const timeline = (await api(`/sales-order/sales-orders/${order.id}`)).body.data.timeline.map((e) => e.to_status);
    assert.deepEqual(timeline, ['verified', 'assigned', 'verified']);
    assert.deepEqual(errors, [], errors.join('\n'));
  });

  test('the sales screens at phone width', async () => {
    const { page, errors } = await openPage(browser, { viewport: PHONE });
    const list = await api('/sales-order/sales-orders?size=1');
    const first = list.body.data.items[0];
    await useSession(page, admin, '/sales-order');
    for (const [path, title, name] of [
      ['/sales-order', 'Sales orders', 'sales-order-list-phone'],
      [`/sales-order/${first.id}`, `Sales order ${first.number}`, 'sales-order-form-phone'],
      ['/sales-order-board', 'Sales Order Board', 'sales-order-board-phone'],
      ['/dispatch-center', 'Dispatch Center', 'dispatch-center-phone'],
    ]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: title }).waitFor({ timeout: 20_000 });
      await page.waitForTimeout(800);
      await shot(page, name);
    }
    assert.deepEqual(errors, [], errors.join('\n'));
  });
});
