// Shared helpers of the end-to-end suite: Debian's chromium through playwright-core (no browser
// download, ever), the server under test, console-error capture, axe-core, screenshots.
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
 * A page that records console errors and page errors. Expected failed loads (answers the test
 * provokes on purpose) are listed in `allow` as URL substrings.
 */
export async function openPage(browser, { viewport = DESKTOP, allow = [] } = {}) {
  const context = await browser.newContext({ viewport, baseURL: BASE_URL, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const url = msg.location()?.url ?? '';
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
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
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
    const r = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(3000) });
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
  await page.getByRole('button', { name: 'Sign in' }).click();
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
