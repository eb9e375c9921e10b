// The sites screen (issue 27: site constraints for the day planner): a dispatcher adds a ship-to's
// constraints on the routing settings' "Sites" list (customer, then one of its ship-tos, the largest
// truck, the hose the truck needs), sees it listed, is told why a second set for the same ship-to is
// refused, and finds it on the customer's page under "Delivery site constraints". Desktop and phone.
//   E2E_BASE_URL (default http://127.0.0.1:8000); the server is started when none answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { DEMO, DESKTOP, PHONE, apiCaller, apiLogin, axe, expectOk, launch, openPage, settleAnimations, shot, useSession } from './lib.mjs';

let server;
let browser;
let admin;
const api = apiCaller(() => admin);
let target; // { customer, shipTo }
const made = [];

before(async () => {
  server = await ensureServer();
  browser = await launch();
  admin = await apiLogin(DEMO.admin);
  // A ship-to without constraints yet (the screen refuses a second set; reruns take another one).
  const sites = await api('/site-constraint/all');
  expectOk(sites, 'site constraints');
  const taken = new Set(sites.body.data.map((s) => s.ship_to_id));
  const customers = (await api('/customer/customers?page=1&size=20&sort_by=name&order=asc')).body.data.items;
  for (const customer of customers) {
    const shipTos = (await api(`/customer-ship-to?customer_id=${customer.id}&size=50`)).body.data.items;
    const free = shipTos.find((s) => !taken.has(s.id) && s.is_active);
    if (free) {
      target = { customer, shipTo: free };
      break;
    }
  }
  assert.ok(target, 'a demo ship-to without site constraints');
});

after(async () => {
  for (const id of made) await api(`/site-constraint/${id}`, { method: 'DELETE' });
  await browser?.close();
  await server?.stop();
});

describe('FuelDesk route planning: the sites screen', { concurrency: false }, () => {
  test('add a site constraint on the routing settings, see it listed, a second one refused, and on the customer page', async () => {
    const { page, errors } = await openPage(browser, { viewport: DESKTOP, allow: ['409'] });
    await useSession(page, admin, '/company-settings/routing');
    await page.getByRole('heading', { level: 1, name: 'Route planning settings' }).waitFor({ timeout: 20_000 });
    const sites = page.getByRole('region', { name: 'Sites' });
    await sites.getByRole('heading', { name: 'Sites' }).waitFor();
    await sites.scrollIntoViewIfNeeded();

    await sites.getByRole('button', { name: /New site constraint/ }).click();
    const dialog = page.getByRole('dialog', { name: 'New site constraint' });
    await dialog.waitFor();
    await dialog.getByRole('combobox', { name: /Customer/ }).fill(target.customer.name);
    await page.getByRole('option', { name: new RegExp(`^${target.customer.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).first().click();
    await dialog.getByRole('combobox', { name: /Ship-to/ }).click();
    await page.getByRole('option', { name: target.shipTo.name, exact: true }).click();
    await dialog.getByLabel(/Largest truck/).fill('2600');
    await dialog.getByLabel(/Skills the truck needs/).fill('Long hose');
    await dialog.getByLabel(/Extra minutes/).fill('12');
    await settleAnimations(page);
    await shot(page, 'routing-sites-form-desktop');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/site-constraint') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const res = await created;
    assert.equal(res.status(), 201, await res.text());
    const row = (await res.json()).data;
    made.push(row.id);
    assert.deepEqual([row.ship_to_id, row.max_truck_gallons, row.skills, row.extra_service_minutes], [target.shipTo.id, 2600, ['long hose'], 12]);
    await dialog.waitFor({ state: 'hidden' });

    // Listed, with the customer beside the ship-to.
    const listed = sites.getByRole('row').filter({ hasText: target.shipTo.name }).filter({ hasText: '2,600 gal' });
    await listed.waitFor();
    assert.match(await listed.innerText(), /long hose/);
    assert.match(await listed.innerText(), new RegExp(target.customer.name.slice(0, 12).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.deepEqual(await axe(page), []);
    await shot(page, 'routing-sites-desktop');

    // A second set for the same ship-to: the server's sentence in the form.
    await sites.getByRole('button', { name: /New site constraint/ }).click();
    await dialog.waitFor();
    await dialog.getByRole('combobox', { name: /Customer/ }).fill(target.customer.name);
    await page.getByRole('option', { name: new RegExp(`^${target.customer.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).first().click();
    await dialog.getByRole('combobox', { name: /Ship-to/ }).click();
    await page.getByRole('option', { name: target.shipTo.name, exact: true }).click();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByRole('alert').filter({ hasText: `Ship-to ${target.shipTo.name} already has its site constraints: edit them instead.` }).waitFor();
    await shot(page, 'routing-sites-refused-desktop');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The customer's page: its delivery site constraints.
    await useSession(page, admin, `/customer/${target.customer.id}`);
    const panel = page.locator('#customer-site-constraints');
    await panel.getByRole('heading', { name: 'Delivery site constraints' }).waitFor({ timeout: 20_000 });
    await panel.getByRole('row').filter({ hasText: target.shipTo.name }).filter({ hasText: '2,600 gal' }).waitFor();
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'routing-sites-customer-desktop');
    assert.deepEqual(errors.filter((e) => !/409/.test(e)), []);
    await page.context().close();
  });

  test('the sites list and the customer panel at phone width', async () => {
    const { page, errors } = await openPage(browser, { viewport: PHONE });
    await useSession(page, admin, '/company-settings/routing');
    const sites = page.getByRole('region', { name: 'Sites' });
    await sites.getByRole('heading', { name: 'Sites' }).waitFor({ timeout: 20_000 });
    await sites.scrollIntoViewIfNeeded();
    await sites.getByText(target.shipTo.name).first().waitFor();
    // Nothing wider than the phone.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scroll at phone width');
    await shot(page, 'routing-sites-phone');
    await sites.getByRole('button', { name: /New site constraint/ }).click();
    await page.getByRole('dialog', { name: 'New site constraint' }).waitFor();
    await settleAnimations(page);
    await shot(page, 'routing-sites-form-phone');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await useSession(page, admin, `/customer/${target.customer.id}`);
    const panel = page.locator('#customer-site-constraints');
    await panel.getByRole('heading', { name: 'Delivery site constraints' }).waitFor({ timeout: 20_000 });
    await panel.scrollIntoViewIfNeeded();
    await panel.getByText(target.shipTo.name).first().waitFor();
    await shot(page, 'routing-sites-customer-phone');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
