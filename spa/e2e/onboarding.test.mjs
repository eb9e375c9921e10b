// Onboarding (issue 16): the demo admin opens /onboarding, sees the steps computed from the demo
// company's data and the progress, follows a step's link to its screen; desktop and phone shots.
//   E2E_BASE_URL (default http://127.0.0.1:8000); the server is started when none answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { BASE_URL, DEMO, DESKTOP, PHONE, apiLogin, axe, launch, openPage, shot, useSession } from './lib.mjs';

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

async function checklist() {
  const r = await fetch(`${BASE_URL}/api/onboarding`, { headers: { Authorization: `Bearer ${admin.access_token}` } });
  assert.equal(r.status, 200);
  return (await r.json()).data;
}

describe('FuelDesk onboarding', { concurrency: false }, () => {
  test('the checklist shows the steps and the progress, and a step leads to its screen', async () => {
    const expected = await checklist();
    assert.ok(expected.total >= 8, `built-in steps: ${expected.total}`);
    const { page, errors } = await openPage(browser, { viewport: DESKTOP });
    await useSession(page, admin, '/onboarding');
    await page.getByRole('heading', { level: 1, name: 'Onboarding' }).waitFor({ timeout: 20_000 });
    const progress = page.getByTestId('onboarding-progress');
    await progress.waitFor();
    assert.equal(await progress.textContent(), `${expected.done} of ${expected.total} steps done`);
    const steps = page.getByRole('list', { name: 'Setup steps' }).getByRole('listitem');
    assert.equal(await steps.count(), expected.total);
    for (const step of expected.steps) {
      const row = page.getByTestId(`step-${step.key}`);
      assert.equal(await row.getAttribute('data-state'), step.state, step.key);
      await row.getByText(step.title, { exact: true }).waitFor();
    }
    await shot(page, 'onboarding-desktop');
    assert.deepEqual(await axe(page), []);

    // The products step's button opens the products screen.
    await page.getByTestId('step-products').getByRole('link', { name: /: Add your products$/ }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor({ timeout: 20_000 });
    assert.equal(new URL(page.url()).pathname, '/product');

    // Back to the checklist: it is read again and still answers the same counts.
    await page.goBack();
    await progress.waitFor();
    assert.match((await progress.textContent()) ?? '', /^\d+ of \d+ steps done$/);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('phone: the checklist fits the screen', async () => {
    const { page, errors } = await openPage(browser, { viewport: PHONE });
    await useSession(page, admin, '/onboarding');
    await page.getByTestId('onboarding-progress').waitFor({ timeout: 20_000 });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `no horizontal scroll (${width}px)`);
    await shot(page, 'onboarding-phone');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
