// Keep-full forecasting end to end (issue 26): a keep-full tank that a low reading makes due shows on
// the due list; the dispatcher selects it and creates its order in one action, sees the order's link
// and opens the order; the tank now shows that order instead of a checkbox; the tank's page shows the
// chart, the fit and the settings; the screens at desktop and phone width.
//   E2E_BASE_URL (default http://127.0.0.1:8000); the server is started when none answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { DEMO, DESKTOP, PHONE, apiCaller, apiLogin, expectOk, launch, openPage, settleAnimations, shot, unique, useSession } from './lib.mjs';

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

/** A new keep-full tank of a demo customer, read at `percent` % an hour ago: due at once. */
async function dueTank({ percent = '18', name = unique('E2E tank ') } = {}) {
  const customer = (await api('/customer/customers?size=5')).body.data.items[0];
  const shipTos = (await api(`/customer-ship-to?customer_id=${customer.id}&size=5`)).body;
  const shipTo = shipTos?.data?.items?.[0] ?? null;
  const products = (await api('/product/products/all')).body.data;
  const oil = products.find((p) => /heating|diesel/i.test(p.name)) ?? products[0];
  const made = await api('/asset', {
    method: 'POST',
    body: JSON.stringify({ asset_name: name, customer_id: customer.id, ship_to_id: shipTo?.id ?? null, product_id: oil.id, capacity: '500', tank_type: 'above_ground', serial_number: unique('SN-'), is_active: true }),
  });
  expectOk(made, 'create tank');
  const asset = made.body.data;
  expectOk(
    await api(`/forecast/tank/${asset.id}/settings`, {
      method: 'PUT',
      body: JSON.stringify({ program: 'keep_full', usage_model: 'calendar', usage_type: 'fleet_diesel', max_fill_percent: '90', reorder_percent: '30', daily_rate_override: '25' }),
    }),
    'keep-full settings',
  );
  const at = new Date(Date.now() - 3600_000).toISOString();
  expectOk(await api('/forecast/reading', { method: 'POST', body: JSON.stringify({ asset_id: asset.id, level_percent: percent, taken_at: at, source: 'office' }) }), 'reading');
  return { asset, customer };
}

describe('FuelDesk keep-full forecast', { concurrency: false }, () => {
  test('a due tank is selected, its order created in one action, and the order opened', async () => {
    const { asset } = await dueTank();
    const due = await api('/forecast/due?within_days=7');
    expectOk(due, 'due list');
    const mine = due.body.data.rows.find((r) => r.asset_id === asset.id);
    assert.ok(mine, `the tank read at 18% is due: ${JSON.stringify(due.body.data.rows.map((r) => r.asset_name))}`);

    const { page, errors } = await openPage(browser, { viewport: DESKTOP });
    await useSession(page, admin, '/forecast');
    await page.getByRole('heading', { level: 1, name: 'Keep-Full Forecast' }).waitFor({ timeout: 20_000 });
    const row = page.getByTestId(`due-row-${asset.id}`);
    await row.waitFor({ timeout: 20_000 });
    await shot(page, 'forecast-due-desktop');
    // Run the forecast now: the worker's progress, then its outcome.
    await page.getByRole('button', { name: 'Run forecast now' }).click();
    const progress = page.getByTestId('run-progress');
    await progress.waitFor({ timeout: 20_000 });
    await page.locator('[data-testid="run-progress"][data-status="succeeded"]').waitFor({ timeout: 60_000 });
    assert.match(await progress.innerText(), /Forecast done: \d+ tanks forecast, \d+ due/);
    await row.waitFor({ timeout: 20_000 });
    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create 1 order' }).click();
    const results = page.getByTestId('create-results');
    await results.waitFor({ timeout: 20_000 });
    const link = results.getByRole('link', { name: /^Order / });
    const href = await link.getAttribute('href');
    assert.match(href, /^\/sales-order\/\d+$/);
    // The tank now has an open order: its row shows the order instead of a checkbox.
    await row.getByRole('link', { name: /^Order / }).waitFor({ timeout: 20_000 });
    assert.equal(await row.getByRole('checkbox').count(), 0);
    await shot(page, 'forecast-due-created-desktop');

    // The order exists, for this tank's customer, with the suggested quantity, and remembers the forecast.
    const orderId = Number(href.split('/').pop());
    const order = await api(`/sales-order/sales-orders/${orderId}`);
    expectOk(order, 'the created order');
    assert.equal(order.body.data.customer_id ?? order.body.data.customer?.id, mine.customer_id);
    assert.equal(Number(order.body.data.line_items[0].quantity), Math.round(Number(mine.suggested_gallons)));

    await link.click();
    await page.waitForURL(`**/sales-order/${orderId}`, { timeout: 20_000 });
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 20_000 });
    assert.deepEqual(errors, []);
  });

  test("the tank's page: chart, fit, settings; a reading added from it", async () => {
    const { asset } = await dueTank({ percent: '40' });
    const { page, errors } = await openPage(browser, { viewport: DESKTOP });
    await useSession(page, admin, `/forecast/tank/${asset.id}`);
    await page.getByRole('heading', { level: 1, name: asset.asset_name }).waitFor({ timeout: 20_000 });
    await page.getByTestId('tank-chart').waitFor({ timeout: 20_000 });
    await page.getByTestId('fit').waitFor();
    assert.match(await page.getByTestId('fit').innerText(), /Usage \(gallons per day\)/);
    await settleAnimations(page);
    await shot(page, 'forecast-tank-desktop');

    const form = page.getByRole('form', { name: 'Add a reading' });
    await form.getByLabel('Level').fill('35');
    await form.getByRole('button', { name: 'Add reading' }).click();
    await page.getByText('Reading saved').waitFor({ timeout: 20_000 });
    const readings = await api(`/forecast/reading?asset_id=${asset.id}`);
    assert.ok(readings.body.data.items.some((r) => Number(r.level_percent) === 35), 'the reading is stored');
    assert.deepEqual(errors, []);
  });

  test('the screens at phone width', async () => {
    const { asset } = await dueTank({ percent: '15' });
    const { page, errors } = await openPage(browser, { viewport: PHONE });
    await useSession(page, admin, '/forecast');
    await page.getByTestId(`due-row-${asset.id}`).waitFor({ timeout: 20_000 });
    await shot(page, 'forecast-due-phone');
    await page.goto(`/forecast/tank/${asset.id}`);
    await page.getByTestId('tank-chart').waitFor({ timeout: 20_000 });
    await settleAnimations(page);
    await shot(page, 'forecast-tank-phone');
    await page.goto('/forecast/weather');
    await page.getByRole('heading', { name: 'Weather zones' }).waitFor({ timeout: 20_000 });
    await shot(page, 'forecast-weather-phone');
    await page.goto('/forecast/readings');
    await page.getByRole('heading', { name: 'Tank readings' }).waitFor({ timeout: 20_000 });
    await shot(page, 'forecast-readings-phone');
    assert.deepEqual(errors, []);
  });
});
