// The resource-list kit end to end (issue 14): a list keeps its page size, search, sort and page in
// the URL, so a reload, Back from a record, or a shared link shows the same list.
//   E2E_BASE_URL (default http://127.0.0.1:8000); the server is started when none answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { BASE_URL, DEMO, DESKTOP, PHONE, apiLogin, launch, openPage, shot, useSession } from './lib.mjs';

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

async function api(path) {
  const r = await fetch(`${BASE_URL}/api${path}`, { headers: { Authorization: `Bearer ${admin.access_token}` } });
  assert.equal(r.status, 200, `GET ${path}: ${r.status}`);
  return (await r.json()).data;
}

const query = (page) => Object.fromEntries(new URL(page.url()).searchParams);

describe('resource lists keep their state in the URL', { concurrency: false }, () => {
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ]) {
    test(`search, sort and page size survive a reload and Back from a record (${label})`, async () => {
      // A term that matches some customers but not all: the first word of the last customer by name.
      const all = await api('/customer/customers?page=1&size=100&sort_by=name&order=desc');
      assert.ok(all.total > 1, 'the demo seed has customers');
      const term = all.items[0].name.split(' ')[0].toLowerCase();
      const matching = await api(`/customer/customers?page=1&size=100&search=${encodeURIComponent(term)}`);

      const { page, errors, context } = await openPage(browser, { viewport });
      await useSession(page, admin, '/customer?size=25&sort_by=name&order=desc');
      const count = page.getByText(/^\d+ customers?$/);
      await count.waitFor({ timeout: 20_000 });
      await page.getByRole('searchbox', { name: /^Search/ }).fill(term);
      await page.waitForURL((u) => u.searchParams.get('search') === term, { timeout: 10_000 });
      assert.deepEqual(query(page), { size: '25', sort_by: 'name', order: 'desc', search: term });
      const expected = `${matching.total} ${matching.total === 1 ? 'customer' : 'customers'}`;
      await page.getByText(expected, { exact: true }).waitFor({ timeout: 20_000 });
      await shot(page, `e2e-${label}-lists-url-state`);

      // A reload shows the same list: the term is back in the box and the same count is shown.
      await page.reload();
      await page.getByText(expected, { exact: true }).waitFor({ timeout: 20_000 });
      assert.equal(await page.getByRole('searchbox', { name: /^Search/ }).inputValue(), term);
      if (label === 'desktop') {
        assert.equal(await page.locator('.MuiDataGrid-columnHeader[aria-sort="descending"]').getAttribute('data-field'), 'name');
      } else {
        // A phone shows a card per customer, its status in view, and the sort as a choice.
        assert.equal(await page.getByRole('combobox', { name: 'Sort by' }).inputValue(), 'name:desc');
        const status = await page.getByTestId('card-status').first().boundingBox();
        assert.ok(status && status.x + status.width <= viewport.width, `status at ${JSON.stringify(status)}`);
      }

      // Open a record, come Back: the same list.
      // (On a phone: the card's title, the way in beside its action buttons.)
      await page.locator(label === 'desktop' ? '.MuiDataGrid-row' : '[data-testid="list-card"] button').first().click();
      await page.waitForURL(/\/customer\/\d+$/);
      await page.goBack();
      await page.getByText(expected, { exact: true }).waitFor({ timeout: 20_000 });
      assert.deepEqual(query(page), { size: '25', sort_by: 'name', order: 'desc', search: term });
      assert.equal(await page.getByRole('searchbox', { name: /^Search/ }).inputValue(), term);
      assert.deepEqual(errors, [], `console errors:\n${errors.join('\n')}`);
      await context.close();
    });
  }
});
