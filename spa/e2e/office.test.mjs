// The office screens of issue 23 §4, checked as a user would: a board drag refused on credit offers the
// override dialog and every board column is on screen at 1440 px; Record payment's Apply follows the
// amount received; the dashboard draws one quantity chart per unit with no console error; Price Check
// says its date defaults to tomorrow; the order form shows whole product names and "Price override".
// Desktop 1440x900 and phone 390x844 shots of each.
//   E2E_BASE_URL (default http://127.0.0.1:8000); the server is started when none answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { DEMO, DESKTOP, PHONE, apiCaller, apiLogin, deliveredOrder, expectOk, launch, openPage, shot, unique, useSession } from './lib.mjs';

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

/** Drags `source` onto `target` with the mouse, in steps (dnd-kit's pointer sensor). */
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

const COLUMNS = ['draft', 'verified', 'assigned', 'in_delivery', 'delivered', 'completed', 'cancelled'];

/** A draft order of a customer whose credit limit it exceeds, with the product of the longest name. */
async function overLimitOrder() {
  const name = unique('Credit Probe ');
  const customer = await api('/customer/customers', { method: 'POST', body: JSON.stringify({ name, credit_limit: '1.00' }) });
  expectOk(customer, 'create customer');
  const products = (await api('/product/products/all')).body.data;
  const longest = [...products].sort((a, b) => b.name.length - a.name.length)[0];
  const day = new Date().toISOString().slice(0, 10);
  const made = await api('/sales-order/sales-orders', {
    method: 'POST',
    body: JSON.stringify({ customer_id: customer.body.data.id, planned_date: day, po_number: unique('PO-CR-'), line_items: [{ product_id: longest.id, quantity: '10' }] }),
  });
  expectOk(made, 'create order');
  return { customer: name, product: longest.name, order: made.body.data };
}

/** The element's text is cut (its content is wider than its box). */
const truncated = (locator) => locator.evaluate((el) => el.scrollWidth > el.clientWidth + 1);

describe('FuelDesk office screens (issue 23 §4)', { concurrency: false }, () => {
  test('board: a drag refused on credit offers the override; every column is on screen at 1440 px', async () => {
    const { customer, order } = await overLimitOrder();
    const { page, errors } = await openPage(browser, { viewport: DESKTOP, allow: ['409', 'status of 4'] });
    await useSession(page, admin, '/sales-order-board');
    await page.getByRole('heading', { level: 1, name: 'Sales Order Board' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('board-column-cancelled').waitFor({ timeout: 20_000 });
    for (const status of COLUMNS) {
      const box = await page.getByTestId(`board-column-${status}`).boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= DESKTOP.width, `the ${status} column is on screen: ${JSON.stringify(box)}`);
    }
    const searched = page.waitForResponse((r) => r.url().includes('/board') && r.url().includes('search=Credit') && r.ok());
    await page.getByLabel('Search').fill(customer);
    await searched;
    const card = page.getByTestId('board-column-draft').getByTestId(`board-card-${order.number}`);
    await card.waitFor({ timeout: 20_000 });
    await page.waitForTimeout(500);
    const refused = page.waitForResponse((r) => r.url().includes(`/sales-orders/${order.id}/status`));
    await dragTo(page, card, page.getByTestId('board-column-verified'));
    assert.equal((await refused).status(), 409, 'the move to Verified is refused on credit');
    const dialog = page.getByRole('dialog', { name: 'Credit check failed' });
    await dialog.waitFor({ timeout: 20_000 }).catch(async (e) => {
      await shot(page, 'office-board-credit-failed');
      throw e;
    });
    await dialog.getByText(/exceed the credit limit of 1\.00/).waitFor();
    await dialog.getByLabel('Reason for the override').fill('Paid by wire today');
    await page.waitForTimeout(300);
    await shot(page, 'office-board-credit-override-desktop');
    await dialog.getByRole('button', { name: 'Verify with override' }).click();
    await page.getByTestId('board-column-verified').getByTestId(`board-card-${order.number}`).waitFor({ timeout: 20_000 });
    const after = (await api(`/sales-order/sales-orders/${order.id}`)).body.data;
    assert.equal(after.status, 'verified');
    await page.getByLabel('Search').fill('');
    await page.waitForTimeout(800);
    await shot(page, 'office-board-desktop');
    assert.deepEqual(errors, [], errors.join('\n'));
    await page.context().close();

    // Phone: the columns scroll sideways, and the last one can be reached.
    const phone = await openPage(browser, { viewport: PHONE });
    await useSession(phone.page, admin, '/sales-order-board');
    const columns = phone.page.getByTestId('board-columns');
    await phone.page.getByTestId('board-column-cancelled').waitFor({ timeout: 20_000 });
    assert.ok(await columns.evaluate((el) => el.scrollWidth > el.clientWidth), 'the board scrolls sideways on a phone');
    await shot(phone.page, 'office-board-phone');
    await phone.page.getByTestId('board-column-cancelled').scrollIntoViewIfNeeded();
    const last = await phone.page.getByTestId('board-column-cancelled').boundingBox();
    assert.ok(last && last.x >= 0 && last.x < PHONE.width, 'Cancelled is reached by scrolling');
    assert.deepEqual(phone.errors, [], phone.errors.join('\n'));
    await phone.page.context().close();
  });

  test('order form: whole product names and "Price override", desktop and phone', async () => {
    const { product, order } = await overLimitOrder();
    for (const [viewport, tag] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
      const { page, errors } = await openPage(browser, { viewport });
      await useSession(page, admin, `/sales-order/${order.id}`);
      await page.getByRole('heading', { level: 1, name: `Sales order ${order.number}` }).waitFor({ timeout: 20_000 });
      const input = page.getByRole('combobox', { name: 'Product 1' });
      await page.waitForFunction((name) => [...document.querySelectorAll('input')].some((i) => i.value.includes(name)), product, { timeout: 20_000 });
      assert.ok((await input.inputValue()).includes(product));
      // Whole in the input, or (a phone's input being narrower than a long name) written out under it.
      const whole = !(await truncated(input)) || (await page.getByTestId('whole-name').first().isVisible() && (await page.getByTestId('whole-name').first().innerText()).includes(product));
      assert.ok(whole, `${tag}: the product name "${product}" can be read whole`);
      if (tag === 'desktop') assert.equal(await truncated(input), false, 'desktop: the name fits its input');
      const label = page.locator('label', { hasText: 'Price override' }).first();
      assert.equal(await truncated(label), false, `${tag}: "Price override" is whole`);
      await page.waitForTimeout(500);
      await shot(page, `office-order-form-${tag}`);
      assert.deepEqual(errors, [], errors.join('\n'));
      await page.context().close();
    }
  });

  test('record payment: Apply follows what was received', async () => {
    const order = await deliveredOrder(api, { poNumber: 'PO-PAY-E2E', quantity: '400', delivered: '400' });
    const made = await api(`/invoice/create?sales_order_id=${order.id}`, { method: 'POST' });
    expectOk(made, 'create invoice');
    const invoiceId = made.body.data.id ?? made.body.data.invoice_id;
    expectOk(await api(`/invoice/${invoiceId}/issue`, { method: 'POST' }), 'issue');
    const invoice = (await api(`/invoice/${invoiceId}`)).body.data;
    const part = (Math.floor(Number(invoice.balance) * 50) / 100).toFixed(2); // about half of what is open
    for (const [viewport, tag] of [[PHONE, 'phone'], [DESKTOP, 'desktop']]) {
      const { page, errors } = await openPage(browser, { viewport });
      await useSession(page, admin, `/invoice/${invoiceId}`);
      await page.getByRole('heading', { level: 1, name: `Invoice ${invoice.invoice_no}` }).waitFor({ timeout: 20_000 });
      await page.getByRole('toolbar', { name: 'Invoice actions' }).getByRole('button', { name: 'Record payment' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record a payment' });
      const apply = dialog.getByLabel(`Apply to ${invoice.invoice_no}`);
      await apply.waitFor({ timeout: 20_000 });
      await dialog.getByLabel('Amount received').fill(part);
      assert.equal(Number(await apply.inputValue()), Number(part), 'Apply follows the amount received');
      await dialog.getByText('The whole payment is applied.').waitFor();
      await shot(page, `office-record-payment-${tag}`);
      if (tag === 'desktop') {
        await dialog.getByRole('button', { name: 'Record payment' }).click();
        await page.getByText(/Payment PAY-\d+ of [\d,.]+ recorded/).waitFor({ timeout: 20_000 });
        const paid = (await api(`/invoice/${invoiceId}`)).body.data;
        assert.equal(Number(paid.balance).toFixed(2), (Number(invoice.balance) - Number(part)).toFixed(2));
      }
      assert.deepEqual(errors, [], errors.join('\n'));
      await page.context().close();
    }
  });

  test('dashboard: one quantity chart per unit, no console error; Price Check says tomorrow', async () => {
    const summary = (await api('/dashboard/product_summary?days=7&force_refresh=true')).body.data;
    const units = [...new Set(summary.products.map((p) => p.sold_as))];
    for (const [viewport, tag] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
      const { page, errors } = await openPage(browser, { viewport });
      await useSession(page, admin, '/dashboard');
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: 20_000 });
      for (const unit of units) await page.getByTestId(`quantity-chart-${unit}`).locator('svg').first().waitFor({ timeout: 20_000 });
      for (const n of [30, 90, 7]) {
        await page.getByRole('button', { name: `Last ${n} days` }).click();
        await page.waitForTimeout(700);
      }
      await page.getByTestId('quantity-chart-gallon').scrollIntoViewIfNeeded();
      await shot(page, `office-dashboard-${tag}`);
      assert.deepEqual(errors, [], errors.join('\n'));

      await page.goto('/pricing-rule/price-check');
      await page.getByRole('heading', { level: 1, name: 'Price Check' }).waitFor({ timeout: 20_000 });
      await page.getByText('Tomorrow: the default, the next delivery day').waitFor();
      await shot(page, `office-price-check-${tag}`);
      assert.deepEqual(errors, [], errors.join('\n'));
      await page.context().close();
    }
  });
});
