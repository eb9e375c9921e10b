// Shared helpers of the end-to-end suite: Debian's chromium through playwright-core (no browser
// download, ever), the server under test, console-error capture, axe-core, screenshots.
import assert from 'node:assert/strict';
import { after } from 'node:test';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);

export const BASE_URL = (process.env.E2E_BASE_URL || 'http://127.0.0.1:8000').replace(/\/+$/, '');
export const CHROMIUM = process.env.CHROMIUM_PATH || process.env.CHROME_PATH || '/usr/bin/chromium';
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function launch() {
  if (!existsSync(CHROMIUM)) throw new Error(`chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/**
 * Every Content-Security-Policy violation any page of this test file reported (core/csp.py): the
 * browser's `securitypolicyviolation` events and its "Content Security Policy" console errors, in
 * every frame. Nothing allows one: the file fails after its tests when this is not empty.
 */
export const cspViolations = [];
after(() => {
  assert.deepEqual(cspViolations, [], `Content-Security-Policy violations while walking the app:\n${cspViolations.join('\n')}`);
});

/**
 * A page that records console errors and page errors. Expected failed loads (answers the test
 * provokes on purpose) are listed in `allow` as URL substrings. A CSP violation is an error here
 * whatever `allow` says, and also fails the file (`cspViolations`).
 */
export async function openPage(browser, { viewport = DESKTOP, allow = [] } = {}) {
  const context = await browser.newContext({ viewport, baseURL: BASE_URL, deviceScaleFactor: 1 });
  const errors = [];
  const violation = (line) => {
    if (cspViolations.includes(line)) return;
    cspViolations.push(line);
    errors.push(line);
  };
  await context.exposeBinding('__e2eCspViolation', (_source, v) =>
    violation(`CSP violation: ${v.directive} blocked ${v.blocked || 'inline'} at ${v.source || v.document}:${v.line} (${v.sample || 'no sample'})`),
  );
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      // eslint-disable-next-line no-undef
      window.__e2eCspViolation?.({
        directive: e.effectiveDirective,
        blocked: e.blockedURI,
        source: e.sourceFile,
        line: e.lineNumber,
        document: e.documentURI,
        sample: e.sample,
      });
    });
  });
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const url = msg.location()?.url ?? '';
    if (/Content[- ]Security[- ]Policy/i.test(msg.text())) {
      violation(`CSP console error: ${msg.text()} ${url}`.trim());
      return;
    }
    if (allow.some((a) => url.includes(a) || msg.text().includes(a))) return;
    errors.push(`${msg.text()} ${url}`.trim());
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return { context, page, errors };
}

export async function shot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: false });
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Waits (up to 2 s) for the page's running CSS transitions and animations (menus fading out, toasts
 * sliding in) to finish: axe measures colours as painted, and a half-transparent element mid-fade is a
 * false contrast failure. Infinite animations (spinners) are left running. */
export async function settleAnimations(page) {
  await page.evaluate(async () => {
    const finite = document
      .getAnimations()
      .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.race([Promise.all(finite.map((a) => a.finished.catch(() => undefined))), new Promise((r) => setTimeout(r, 2000))]);
  });
}

async function axeOnce(page, exclude) {
  await settleAnimations(page);
  // Evaluated through the DevTools protocol, not added as an inline <script>: the page's CSP
  // refuses inline scripts (and reports them), as it must.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async (excl) => {
    // eslint-disable-next-line no-undef
    const r = await window.axe.run({ exclude: excl.map((s) => [s]) }, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  }, exclude);
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Runs axe-core in the page; returns the serious and critical violations. A violation is reported only
 * when a second pass, a moment later, finds it on the same element: a real defect stays, a transient
 * one (an animation that started after the first settle) goes. */
export async function axe(page, { exclude = [] } = {}) {
  const first = await axeOnce(page, exclude);
  if (first.length === 0) return first;
  await page.waitForTimeout(400);
  const second = await axeOnce(page, exclude);
  const key = (v, n) => `${v.id} ${n}`;
  const seen = new Set(first.flatMap((v) => v.nodes.map((n) => key(v, n))));
  return second
    .map((v) => ({ ...v, nodes: v.nodes.filter((n) => seen.has(key(v, n))) }))
    .filter((v) => v.nodes.length > 0);
}

export async function serverUp(url = BASE_URL) {
  try {
    const r = await fetch(`${url}/api/health/live`, { signal: AbortSignal.timeout(3000) });
    return r.status < 500;
  } catch {
    return false;
  }
}

/** Demo logins printed by `manage.py seed_demo` (overridable by env). */
export const DEMO = {
  admin: { email: process.env.E2E_ADMIN_EMAIL || 'admin@demo.fueldesk.test', password: process.env.E2E_ADMIN_PASSWORD || 'DemoAdmin2026' },
  driver: { email: process.env.E2E_DRIVER_EMAIL || 'driver@demo.fueldesk.test', password: process.env.E2E_DRIVER_PASSWORD || 'DemoDriver2026' },
};

export async function signIn(page, { email, password }) {
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

export function unique(prefix) {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Signs in through the API once (sign-ins are rate-limited per account). */
export async function apiLogin({ email, password }) {
  const r = await fetch(`${BASE_URL}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = await r.json();
  if (r.status !== 200) throw new Error(`login of ${email} failed: ${r.status} ${JSON.stringify(body)}`);
  return body.data;
}

/** Puts a session from apiLogin into the page the way the sign-in page does, then opens a path. */
export async function useSession(page, session, path = '/dashboard') {
  await page.goto('/');
  await page.evaluate((s) => {
    window.localStorage.setItem('token', s.access_token);
    window.localStorage.setItem('username', s.user.username);
    window.localStorage.setItem('user_name', s.user.name);
    window.localStorage.setItem('user_role', s.user.role?.name ?? '');
  }, session);
  await page.goto(path);
}

/** A JSON API caller with a signed-in user's token: `call(path, init)` → `{status, body}` (body null
 * when the answer is empty). `session` is what `apiLogin` returned, or a function giving it (for
 * suites that sign in inside `before`). */
export function apiCaller(session) {
  return async function call(path, init = {}) {
    const s = typeof session === 'function' ? session() : session;
    const r = await fetch(`${BASE_URL}/api${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${s.access_token}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) },
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null };
  };
}

/** Fails with the status and the start of the body unless the call succeeded. */
export function expectOk(r, what) {
  assert.ok(r.status < 300, `${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
}

/** A delivered order without an invoice: the demo's, or one taken through the workflow now
 * (verify, assign to the first driver and truck, start, deliver). */
export async function deliveredOrder(api, { customerSearch = '', poNumber = 'PO-E2E', quantity = '250', delivered = '248.5' } = {}) {
  const list = await api('/sales-order/sales-orders?status=delivered&size=50');
  expectOk(list, 'delivered orders');
  for (const o of list.body.data.items) {
    const inv = await api(`/invoice?sales_order_id=${o.id}`);
    // The full order (its lines): a list row has none. The keep-full demo leaves delivered orders uninvoiced.
    if (inv.body.data.total === 0) return (await api(`/sales-order/sales-orders/${o.id}`)).body.data;
  }
  const search = customerSearch ? `search=${encodeURIComponent(customerSearch)}&` : '';
  const customer = (await api(`/customer/customers?${search}size=5`)).body.data.items[0];
  const products = (await api('/product/products/all')).body.data;
  const diesel = products.find((p) => /diesel/i.test(p.name)) ?? products[0];
  const drivers = (await api('/driver/all')).body.data;
  const day = new Date().toISOString().slice(0, 10);
  const trucks = (await api(`/dispatch/day?date=${day}`)).body.data.trucks;
  const made = await api('/sales-order/sales-orders', {
    method: 'POST',
    body: JSON.stringify({ customer_id: customer.id, planned_date: day, po_number: poNumber, line_items: [{ product_id: diesel.id, quantity }] }),
  });
  expectOk(made, 'create order');
  const id = made.body.data.id;
  const so = `/sales-order/sales-orders/${id}`;
  expectOk(await api(`${so}/status?status=verified&override_credit=true&reason=e2e`, { method: 'PUT' }), 'verify');
  expectOk(await api(`${so}/assign`, { method: 'POST', body: JSON.stringify({ driver_id: drivers[0].id, truck_id: trucks[0].truck.id }) }), 'assign');
  expectOk(await api(`${so}/start-delivery`, { method: 'PUT' }), 'start delivery');
  const order = (await api(so)).body.data;
  const lines = order.line_items.map((l) => ({ line_item_id: l.id, delivered_quantity: delivered }));
  expectOk(await api(`${so}/deliver`, { method: 'POST', body: JSON.stringify({ line_items: lines }) }), 'deliver');
  return (await api(so)).body.data;
}
