// "Export all our data" (issue 25 part 4): the demo admin builds the zip on /company-settings/export,
// watches its progress, downloads it and finds every list, record, document and file in it; a driver
// is refused (screen and API). Desktop and phone shots.
//   E2E_BASE_URL (default http://127.0.0.1:8000); the server is started when none answers.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { BASE_URL, DEMO, DESKTOP, PHONE, apiCaller, apiLogin, axe, deliveredOrder, launch, openPage, settleAnimations, shot, useSession } from './lib.mjs';

let server;
let browser;
let admin;

before(async () => {
  server = await ensureServer();
  browser = await launch();
  admin = await apiLogin(DEMO.admin);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

describe('Export all our data', { concurrency: false }, () => {
  test('an admin builds the zip, sees its progress and downloads every part of the company', async () => {
    const api = apiCaller(admin);
    const order = await deliveredOrder(api, { poNumber: 'PO-EXPORT' });
    const tickets = await api(`/delivery-ticket/generate?sales_order_id=${order.id}`); // a document to print
    assert.equal(tickets.status, 200, JSON.stringify(tickets.body).slice(0, 300));
    const { page, errors } = await openPage(browser, { viewport: DESKTOP });
    await useSession(page, admin, '/company-settings');
    await page.getByRole('link', { name: 'Export all data' }).click();
    await page.getByRole('heading', { level: 1, name: 'Export all our data' }).waitFor({ timeout: 20_000 });
    const cards = page.getByTestId('data-export');
    await page.getByRole('heading', { level: 2 }).first().or(page.getByText('No export yet.', { exact: false })).waitFor();
    const before = await cards.count();
    await page.getByRole('button', { name: 'Build a new export' }).click();
    // The new export comes first: queued, then running with its progress, then ready (the worker).
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="data-export"]').length === n + 1, before, { timeout: 20_000 });
    const newest = cards.first();
    await newest.getByRole('button', { name: 'Download zip' }).waitFor({ timeout: 180_000 });
    assert.equal(await page.locator('.Toastify__toast--error').count(), 0, 'no error toast');
    assert.match((await newest.textContent()) ?? '', /\d+ parts · [\d.]+ (KB|MB)/);
    await settleAnimations(page);
    await shot(page, 'data-export-desktop');
    assert.deepEqual(await axe(page), []);

    const [download] = await Promise.all([page.waitForEvent('download'), newest.getByRole('button', { name: 'Download zip' }).click()]);
    assert.match(download.suggestedFilename(), /^fueldesk-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = readFileSync(await download.path());
    assert.equal(zip.subarray(0, 2).toString(), 'PK');
    const names = zip.toString('latin1'); // a zip's entry names are stored as they are
    for (const part of ['lists/customer.csv', 'lists/product.csv', 'tables/sales_salesorder.csv', 'documents/delivery_ticket/', 'README.txt']) {
      assert.ok(names.includes(part), `the zip holds ${part}`);
    }
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('on a phone the screen reads and the download is there', async () => {
    const { page, errors } = await openPage(browser, { viewport: PHONE });
    await useSession(page, admin, '/company-settings/export');
    await page.getByRole('heading', { level: 1, name: 'Export all our data' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('data-export').first().getByRole('button', { name: 'Download zip' }).waitFor({ timeout: 60_000 });
    await settleAnimations(page);
    await shot(page, 'data-export-phone');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no sideways scroll (${overflow}px)`);
    assert.deepEqual(await axe(page), []);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('a driver can neither see nor start an export', async () => {
    const driver = await apiLogin(DEMO.driver);
    const r = await fetch(`${BASE_URL}/api/data-export`, { method: 'POST', headers: { Authorization: `Bearer ${driver.access_token}` } });
    assert.equal(r.status, 403);
    const { page, errors } = await openPage(browser, { viewport: PHONE, allow: ['/api/'] });
    await useSession(page, driver, '/company-settings/export');
    await page.getByText('Only a company admin can export the company\u2019s data.').or(page.getByText("Only a company admin can export the company's data.")).waitFor({ timeout: 20_000 });
    assert.equal(await page.getByRole('button', { name: 'Build a new export' }).count(), 0);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
