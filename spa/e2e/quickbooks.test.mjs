// QuickBooks Online (issue 16) against the fake QBO that `make run` starts (infra/fakes/qbo.py):
// connect through the OAuth redirect (and a forged state refused), see connected, map an item on
// Map Items, post an invoice and see the spec's toast; desktop and phone shots.
//   E2E_BASE_URL (default http://127.0.0.1:8000); the server is started when none answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { DEMO, DESKTOP, PHONE, apiCaller, apiLogin, deliveredOrder, expectOk, launch, openPage, shot, useSession } from './lib.mjs';

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


describe('FuelDesk QuickBooks Online', { concurrency: false }, () => {
  test('connect through the OAuth redirect; a forged state is refused', async () => {
    // Start from a disconnected company (a rerun against the same server).
    const before = await api('/quickbook/connection');
    expectOk(before, 'connection');
    if (before.body.data.state !== 'disconnected') expectOk(await api('/quickbook/disconnect', { method: 'POST' }), 'disconnect');

    const { page, errors } = await openPage(browser, { viewport: DESKTOP, allow: ['400', '409', 'status of 4'] });
    // A callback whose state this server never issued: refused, nothing connected.
    await useSession(page, admin, '/quickbook/login?code=forged-code&state=forged-state&realmId=123');
    const refused = page.getByTestId('qbo-callback-error');
    await refused.waitFor({ timeout: 20_000 });
    assert.ok(((await refused.textContent()) ?? '').length > 10);
    assert.equal(await page.getByTestId('qbo-connection').getAttribute('data-state'), 'disconnected');

    await page.goto('/quickbook-online');
    await page.getByTestId('qbo-state').filter({ hasText: /^Not connected$/ }).waitFor({ timeout: 20_000 });
    await shot(page, 'quickbooks-disconnected-desktop');
    // Map Items before connecting: says it is not connected, links to connect, counts the products (issue 23).
    const products = (await api('/product/products/all')).body.data.length;
    await page.goto('/quickbook-online/map-items');
    await page.getByText('QuickBooks Online is not connected.', { exact: false }).waitFor({ timeout: 20_000 });
    assert.equal(await page.getByRole('link', { name: 'Connect' }).getAttribute('href'), '/quickbook-online');
    await page.getByTestId('map-counts').filter({ hasText: `${products} product` }).waitFor();
    assert.equal(await page.getByText(/needs reconnecting/).count(), 0);
    await shot(page, 'quickbooks-map-items-disconnected-desktop');
    await page.goto('/quickbook-online');
    await page.getByTestId('qbo-state').filter({ hasText: /^Not connected$/ }).waitFor({ timeout: 20_000 });
    // Connect: the browser goes to the (fake) Intuit authorize endpoint, which sends it back to /quickbook/login.
    const callback = page.waitForResponse((r) => r.url().includes('/api/quickbook/callback') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Connect to QuickBooks Online' }).click();
    const answer = await callback;
    assert.equal(answer.status(), 200, await answer.text());
    await page.waitForURL(/\/quickbook-online$/);
    await page.getByTestId('qbo-state').filter({ hasText: /^Connected$/ }).waitFor();
    assert.equal(await page.getByTestId('qbo-connection').getAttribute('data-state'), 'connected');
    await page.getByRole('table', { name: 'Customers and their QuickBooks sync' }).waitFor();
    await shot(page, 'quickbooks-connected-desktop');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('map an item, post an invoice and see the toast', async () => {
    const { page, errors } = await openPage(browser, { viewport: DESKTOP, allow: ['409', 'status of 4'] });
    await useSession(page, admin, '/quickbook-online/map-items');
    const map = (await api('/quickbook/item-map')).body.data;
    const product = map.find((r) => r.kind === 'product');
    assert.ok(product, 'a product to map');
    const row = page.getByTestId(`map-product-${product.local_id}`);
    await row.waitFor({ timeout: 20_000 });
    // Select the product and "Sync selected": the worker maps it to a same-named QBO item or creates one.
    await row.getByRole('checkbox', { name: `Select ${product.local_name}` }).check();
    const started = page.waitForResponse((r) => r.url().includes('/api/quickbook/sync-selected-items'));
    await page.getByRole('button', { name: 'Sync selected (1)' }).click();
    assert.equal((await started).status(), 200);
    await page.locator('[data-testid="job-progress"][data-status="succeeded"]').waitFor({ timeout: 60_000 });
    await page.locator(`[data-testid="map-product-${product.local_id}"][data-mapped="yes"]`).waitFor();
    assert.equal(await row.getByRole('combobox').inputValue(), product.local_name);
    await shot(page, 'quickbooks-map-items-desktop');

    // An issued invoice whose lines are all mapped (the rest through the API: suggestion or first item).
    const items = (await api('/quickbook/items')).body.data;
    for (const r of (await api('/quickbook/item-map')).body.data.filter((x) => !x.qbo_item_id)) {
      expectOk(await api('/quickbook/item-map', { method: 'PUT', body: JSON.stringify({ kind: r.kind, local_id: r.local_id, qbo_item_id: r.suggestion?.id ?? items[0].id }) }), `map ${r.local_name}`);
    }
    const order = await deliveredOrder(api, { poNumber: 'PO-QBO-E2E', quantity: '300', delivered: '299' });
    const made = await api(`/invoice/create?sales_order_id=${order.id}`, { method: 'POST' });
    expectOk(made, 'create invoice');
    const invoiceId = made.body.data.id ?? made.body.data.invoice_id;
    expectOk(await api(`/invoice/${invoiceId}/issue`, { method: 'POST' }), 'issue');
    // First with its product unmapped: the push fails, and the invoice says why where its chip is (issue 23).
    const productId = order.line_items[0].product_id ?? order.line_items[0].product.id;
    const kept = (await api('/quickbook/item-map')).body.data.find((r) => r.kind === 'product' && r.local_id === productId);
    expectOk(await api('/quickbook/item-map', { method: 'PUT', body: JSON.stringify({ kind: 'product', local_id: productId, qbo_item_id: null }) }), 'unmap');
    await page.goto(`/invoice/${invoiceId}`);
    const refused = page.waitForResponse((r) => r.url().includes(`/api/quickbook/invoice/${invoiceId}/push`));
    await page.getByRole('button', { name: 'Post to QuickBooks' }).click({ timeout: 20_000 });
    assert.equal((await refused).status(), 409);
    const chip = page.getByTestId('invoice-sync');
    await chip.filter({ hasText: 'Failed' }).waitFor({ timeout: 20_000 });
    const reason = await chip.getByTestId('sync-error').innerText();
    assert.match(reason, /map|item/i, `the reason is shown beside the chip: ${reason}`);
    await shot(page, 'quickbooks-invoice-failed-desktop');
    expectOk(await api('/quickbook/item-map', { method: 'PUT', body: JSON.stringify({ kind: 'product', local_id: productId, qbo_item_id: kept.qbo_item_id }) }), 'map again');

    await page.goto(`/invoice/${invoiceId}`);
    const push = page.waitForResponse((r) => r.url().includes(`/api/quickbook/invoice/${invoiceId}/push`));
    await page.getByRole('button', { name: 'Post to QuickBooks' }).click({ timeout: 20_000 });
    assert.equal((await push).status(), 200);
    await page.getByText('Posted to QuickBooks Online successfully').waitFor();
    await page.getByTestId('invoice-sync').filter({ hasText: 'Synced' }).waitFor();
    await shot(page, 'quickbooks-invoice-posted-desktop');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('phone: the QuickBooks screens fit', async () => {
    const { page, errors } = await openPage(browser, { viewport: PHONE });
    await useSession(page, admin, '/quickbook-online');
    await page.getByTestId('qbo-connection').waitFor({ timeout: 20_000 });
    await page.getByRole('table', { name: 'Customers and their QuickBooks sync' }).waitFor();
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width, 'no horizontal scroll');
    await shot(page, 'quickbooks-connected-phone');
    await page.goto('/quickbook-online/map-items');
    await page.getByRole('table', { name: 'Item mapping' }).waitFor({ timeout: 20_000 });
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= PHONE.width, 'no horizontal scroll');
    await shot(page, 'quickbooks-map-items-phone');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
