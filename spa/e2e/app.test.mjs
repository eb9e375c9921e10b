// End-to-end flows through the real server in Debian's chromium (playwright-core).
//   E2E_BASE_URL (default http://127.0.0.1:8000); the server is started when none answers.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { makePng } from './png.mjs';
import { ARTIFACTS, DEMO, PHONE, apiLogin, axe, launch, openPage, settleAnimations, shot, signIn, unique, useSession } from './lib.mjs';

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

function assertNoConsoleErrors(errors, where) {
  assert.deepEqual(errors, [], `console errors on ${where}:\n${errors.join('\n')}`);
}

async function assertAccessible(page, where) {
  const violations = await axe(page);
  assert.deepEqual(violations, [], `serious/critical axe violations on ${where}:\n${JSON.stringify(violations, null, 2)}`);
}

function expiredJwt() {
  const enc = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc({ sub: '1', exp: Math.floor(Date.now() / 1000) - 3600 })}.x`;
}

describe('FuelDesk SPA', { concurrency: false }, () => {
  test('sign-in page renders and is accessible', async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await shot(page, 'e2e-desktop-signin');
    await assertAccessible(page, 'sign-in');
    // /login is the sign-in page too.
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // Wrong password: the server's sentence is shown.
    await page.getByLabel('Email').fill(`${unique('nobody')}@e2e.fueldesk.test`);
    await page.getByLabel('Password').fill('definitely-wrong-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: /invalid|incorrect|password/i }).first().waitFor();
    // The 401 of a failed sign-in is an answer, not a page error.
    assertNoConsoleErrors(errors.filter((e) => !e.includes('401')), 'sign-in');
    await context.close();

    // Time from submitting the sign-in form to an interactive dashboard (fresh page, cold cache).
    const fresh = await openPage(browser);
    await fresh.page.goto('/');
    await fresh.page.getByLabel('Email').fill(DEMO.admin.email);
    await fresh.page.getByLabel('Password').fill(DEMO.admin.password);
    const t0 = Date.now();
    await fresh.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await fresh.page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await fresh.page.getByTestId('rail-group-sales').hover();
    await fresh.page.getByTestId('menu-popup').waitFor();
    const ms = Date.now() - t0;
    console.log(`[e2e] sign-in submit → interactive dashboard: ${ms} ms`);
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(`${ARTIFACTS}timings.json`, JSON.stringify({ signInToDashboardMs: ms, at: new Date().toISOString() }, null, 2));
    assertNoConsoleErrors(fresh.errors, 'sign-in to dashboard');
    await fresh.context.close();
  });

  test('sign up, land on the dashboard, upload a logo, create a user with a role, log out', async () => {
    const { page, errors, context } = await openPage(browser);
    const company = unique('E2E Fuel ');
    const email = `${unique('owner')}@e2e.fueldesk.test`;
    await page.goto('/signup');
    await page.getByLabel('Company name').fill(company);
    await page.getByLabel('Your name').fill('Erin Owner');
    await page.getByLabel('Work email').fill(email);
    await page.locator('input[name="password"]').fill('Fueling2026ok');
    await page.getByLabel('Confirm password').fill('Fueling2026ok');
    await page.getByRole('button', { name: 'Create company' }).click();
    await page.waitForURL('**/dashboard', { timeout: 60_000 });
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByTestId('rail').waitFor();
    await shot(page, 'e2e-desktop-dashboard');
    await assertAccessible(page, 'dashboard (shell)');

    // Hover popup with the shell's rules.
    await page.getByTestId('rail-group-users').hover();
    const popup = page.getByTestId('menu-popup');
    await popup.waitFor();
    assert.equal(await popup.getByRole('heading').textContent(), 'Users');
    const box = await popup.boundingBox();
    assert.ok(box.width >= 280 && box.width <= 320, `popup width ${box.width}`);
    await shot(page, 'e2e-desktop-popup');
    await popup.getByRole('link', { name: /User Management/ }).click();
    await page.waitForURL('**/user-management');

    // Company settings with a logo; the rail shows it at once.
    await page.goto('/company-settings');
    await page.getByRole('button', { name: 'Set up company profile' }).first().click();
    await page.getByRole('textbox', { name: 'Company name' }).fill(company);
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('textbox', { name: 'Phone number' }).fill('+1 555 0100');
    await page.getByTestId('logo-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: makePng() });
    await page.getByTestId('logo-preview').waitFor();
    await page.getByRole('button', { name: 'Create company profile' }).click();
    await page.getByText('Company settings created successfully').waitFor();
    await page.getByTestId('company-settings-view').waitFor();
    await page.getByTestId('rail').getByTestId('company-logo').waitFor();
    // The image element appears before its blob has been fetched and decoded: wait for the pixels.
    const logo = page.getByTestId('rail').getByTestId('company-logo');
    await logo.evaluate(
      (img) =>
        new Promise((resolve) => {
          if (img.complete && img.naturalWidth > 0) return resolve(undefined);
          img.addEventListener('load', () => resolve(undefined), { once: true });
          img.addEventListener('error', () => resolve(undefined), { once: true });
        }),
    );
    const natural = await logo.evaluate((img) => img.naturalWidth);
    assert.ok(natural > 0, 'the rail logo image loaded');
    assert.match(await page.getByTestId('rail-company').textContent(), /E2E Fuel/);
    await shot(page, 'e2e-desktop-company-settings');
    await assertAccessible(page, 'company settings');

    // A user with a role.
    await page.goto('/user-management');
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Full name' }).fill('Sam Dispatcher');
    const userEmail = `${unique('sam')}@e2e.fueldesk.test`;
    await dialog.getByRole('textbox', { name: 'Email' }).fill(userEmail);
    await dialog.locator('input[name="password"]').fill('Dispatch2026go');
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Dispatcher' }).click();
    // The menu fades out: axe would measure its half-transparent options (a false contrast failure).
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await shot(page, 'e2e-desktop-user-form');
    await assertAccessible(page, 'user form');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('User created successfully').waitFor();
    const row = page.getByRole('row').filter({ hasText: userEmail });
    await row.waitFor();
    assert.match(await row.textContent(), /Dispatcher/);
    await shot(page, 'e2e-desktop-user-management');
    await assertAccessible(page, 'user management');

    // Roles: the current user's role is visible, the permission matrix opens.
    await page.goto('/role-management');
    await page.getByTestId('current-role').waitFor();
    assert.match(await page.getByTestId('current-role').textContent(), /Admin/);
    await page.getByRole('button', { name: 'New role' }).click();
    await page.getByRole('table', { name: 'Permission matrix' }).waitFor();
    await shot(page, 'e2e-desktop-role-form');
    await assertAccessible(page, 'role form');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await assertAccessible(page, 'role management');

    // Log out: toast, storage cleared, at /.
    await page.getByRole('button', { name: /^Log out/ }).click();
    await page.getByText('You have been logged out.').waitFor();
    await page.waitForURL((u) => new URL(u).pathname === '/');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    assert.equal(await page.evaluate(() => window.localStorage.getItem('token')), null);
    assertNoConsoleErrors(errors, 'the signed-in admin pages');
    await context.close();
  });

  test('a driver sees the driver layout', async () => {
    const { page, errors, context } = await openPage(browser);
    await signIn(page, DEMO.driver);
    await page.getByText('Driver App').waitFor();
    await page.getByText('Driver Portal').waitFor();
    assert.equal(await page.getByTestId('rail').count(), 0);
    assert.equal(await page.getByTestId('bottom-bar').count(), 0);
    await page.getByRole('button', { name: 'Change Trucks' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Trucks' });
    await dialog.waitFor();
    await dialog.locator('[role="progressbar"]').waitFor({ state: 'detached' });
    await shot(page, 'e2e-desktop-driver-trucks');
    const boxes = dialog.getByRole('checkbox');
    if ((await boxes.count()) > 0) {
      await boxes.first().check();
      await dialog.getByRole('button', { name: 'Save' }).click();
      const stored = await page.evaluate(() => JSON.parse(window.localStorage.getItem('selected_company_assets') || '[]'));
      assert.equal(stored.length, 1);
    } else {
      await dialog.getByTestId('no-trucks').waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }
    await shot(page, 'e2e-desktop-driver');
    assertNoConsoleErrors(errors, 'the driver layout');
    await context.close();
  });

  test('at 390×844 the bottom bar and sheet work', async () => {
    const { page, errors, context } = await openPage(browser, { viewport: PHONE });
    await useSession(page, admin, '/dashboard');
    const bar = page.getByTestId('bottom-bar');
    await bar.waitFor();
    assert.equal(await page.getByTestId('rail').count(), 0);
    const sales = bar.getByRole('button', { name: 'Sales (AR)' });
    const width = (await sales.boundingBox()).width;
    assert.equal(Math.round(width), 65);
    await sales.click();
    const sheet = page.getByTestId('bottom-sheet');
    await sheet.waitFor();
    const sb = await sheet.boundingBox();
    assert.ok(sb.width <= 320 && sb.height <= 844 / 2 + 1, `sheet ${sb.width}×${sb.height}`);
    await shot(page, 'e2e-phone-sheet');
    await assertAccessible(page, 'phone shell with sheet');
    await page.getByTestId('sheet-backdrop').click({ position: { x: 20, y: 120 } });
    await sheet.waitFor({ state: 'detached' });
    await sales.click();
    await page.getByRole('button', { name: 'Close menu' }).click();
    await sheet.waitFor({ state: 'detached' });
    await sales.click();
    await sheet.waitFor();
    await sales.click();
    await sheet.waitFor({ state: 'detached' });
    // Every group is reachable at 390px: the bar's buttons all fit on screen, the rest are behind More.
    const onBar = await bar.getByRole('button').evaluateAll((els) => els.map((e) => [e.getAttribute('aria-label'), e.getBoundingClientRect().right]));
    assert.ok(onBar.every(([, right]) => right <= 390), `off-screen: ${JSON.stringify(onBar)}`);
    await bar.getByRole('button', { name: 'More' }).click();
    const more = page.getByRole('dialog', { name: 'More' });
    const inMore = await more.locator('[data-testid^="more-group-"]').allInnerTexts();
    const reachable = [...onBar.map(([label]) => label).filter((l) => l !== 'More'), ...inMore.map((t) => t.trim())];
    assert.deepEqual(reachable, ['Dashboard', 'Sales (AR)', 'Purchase (AP)', 'Operations & Logistics', 'Products & Inventory', 'Pricing', 'Email', 'Integrations', 'Users', 'Settings']);
    await shot(page, 'e2e-phone-more');
    await more.getByRole('button', { name: 'Users' }).click();
    await page.getByTestId('bottom-sheet').getByRole('link', { name: /User Management/ }).click();
    await page.waitForURL('**/user-management');
    // A list on a phone: a card per user with the status in view (the grid put it off-screen).
    const card = page.getByTestId('list-card').first();
    await card.waitFor();
    const status = await card.getByTestId('card-status').boundingBox();
    assert.ok(status && status.x + status.width <= 390, `status at ${JSON.stringify(status)}`);
    await shot(page, 'e2e-phone-user-management');
    // A full-screen form on the phone: its buttons are above the bottom bar and work.
    await page.getByRole('button', { name: 'New user' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.getByText('Full name is required').waitFor();
    await shot(page, 'e2e-phone-user-form');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.goto('/company-settings');
    await page.getByRole('heading', { name: 'Company Settings' }).waitFor();
    await shot(page, 'e2e-phone-company-settings');
    assertNoConsoleErrors(errors, 'the phone layout');
    await context.close();
  });

  test('an unknown path shows the not-found page', async () => {
    const { page, errors, context } = await openPage(browser);
    await useSession(page, admin, '/this/page/does-not-exist');
    await page.getByText('Oops! page not found').waitFor();
    await page.getByText('404', { exact: true }).waitFor();
    await page.getByText("we couldn't find what you are looking for. Please try again with different url").waitFor();
    await shot(page, 'e2e-desktop-not-found');
    await page.getByRole('button', { name: 'Refresh Page' }).click();
    await page.waitForURL('**/dashboard');
    assertNoConsoleErrors(errors, 'not-found');
    await context.close();
  });

  test('a stale token is logged out', async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto('/');
    await page.evaluate((t) => {
      window.localStorage.setItem('token', t);
      window.localStorage.setItem('user_role', 'Admin');
    }, expiredJwt());
    await page.goto('/dashboard');
    await page.getByText('You have been logged out.').waitFor();
    await page.waitForURL((u) => new URL(u).pathname === '/');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    assert.equal(await page.evaluate(() => window.localStorage.getItem('token')), null);
    assertNoConsoleErrors(errors, 'stale token');
    await context.close();
  });
  test("a server failure's toast quotes the request id the server logged", async () => {
    // The export answers 500 here (the real server's answer, its X-Request-ID kept, its status and
    // body replaced): the toast must carry that id, which is what support searches the logs for.
    const { page, errors, context } = await openPage(browser, { allow: ['/export', '500'] });
    let requestId = '';
    await page.route('**/api/customer/customers/export**', async (route) => {
      const real = await route.fetch();
      requestId = real.headers()['x-request-id'] ?? '';
      await route.fulfill({
        status: 500,
        headers: { 'Content-Type': 'application/json', 'X-Request-ID': requestId },
        body: JSON.stringify({ detail: 'Something went wrong on our side.' }),
      });
    });
    await useSession(page, admin, '/customer');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const toastText = page.getByRole('alert').filter({ hasText: 'reference' }).first();
    await toastText.waitFor();
    assert.match(requestId, /^[0-9a-f]{32}$/, 'the server returned a request id');
    assert.equal(await toastText.textContent(), `Something went wrong on our side. (reference ${requestId})`);
    await settleAnimations(page);
    await shot(page, 'e2e-desktop-error-toast-reference');
    assertNoConsoleErrors(errors, 'error toast');
    await context.close();
  });
});
