// The plan's map on MapLibre (issue 27): with a map style URL in the routing settings the plan page
// draws the routes with MapLibre GL instead of the plain drawing. Nothing is fetched from the
// internet: the style (a background layer only; the routes are the view's own geojson) and the raster
// tiles are answered by this test (Playwright's page.route) at addresses of the app's own origin, so
// the page's CSP (connect-src 'self') allows them as it would a tile host named in CSP_CONNECT_SRC.
// Headless chromium with --disable-gpu has WebGL here (SwiftShader), so the MapLibre path itself is
// checked: the canvas, the route lines MapLibre rendered (queryRenderedFeatures), the numbered stop
// markers, pixels of a route's colour on the canvas; then a style that does not load falls back to
// the drawing with its note. The settings are put back afterwards (routing.test.mjs expects the drawing).
// Needs the worker when the day has no plan yet (make run runs one).
//   E2E_BASE_URL (default http://127.0.0.1:8000); the server is started when none answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { makePng } from './png.mjs';
import { BASE_URL, DEMO, DESKTOP, PHONE, apiCaller, apiLogin, expectOk, launch, openPage, settleAnimations, shot, useSession } from './lib.mjs';

let server;
let browser;
let admin;
let saved; // the routing settings before this test
let plan;
const api = apiCaller(() => admin);
const day = new Date().toISOString().slice(0, 10);
const STYLE_URL = `${BASE_URL}/e2e-map/style.json`;
const TILE_URL = `${BASE_URL}/e2e-map/tiles/{z}/{x}/{y}.png`;
const MISSING_STYLE_URL = `${BASE_URL}/e2e-map/missing-style.json`;
const STYLE = { version: 8, name: 'e2e', sources: {}, layers: [{ id: 'land', type: 'background', paint: { 'background-color': '#eef2ec' } }] };
const TILE = makePng(256, [214, 226, 236]);
const FIRST_ROUTE_COLOR = [0x4e, 0x79, 0xa7]; // projection.ts ROUTE_COLORS[0]

const settingsBody = (s, patch) => {
  const { saved: _saved, map_allowed_sites: _sites, ...rest } = s; // what the server computes
  return JSON.stringify({ ...rest, ...patch });
};
async function setTiles(patch) {
  const res = await api('/routing-settings', { method: 'PUT', body: settingsBody(saved, patch) });
  expectOk(res, 'routing settings');
}

/** The day's plan with routes: the latest, or a new 5-second one (needs the worker). */
async function dayPlan() {
  const withRoutes = (p) => p?.plan && p.plan.routes.some((r) => r.visits.some((v) => v.kind === 'stop'));
  const latest = (await api(`/route-plan?planned_date=${day}`)).body.data.items[0];
  if (withRoutes(latest) && ['ready', 'stopped', 'accepted'].includes(latest.status)) return latest;
  const drivers = (await api('/driver/all')).body.data;
  const trucks = (await api('/company-asset/all')).body.data.filter((t) => t.is_active && t.compartments.length > 0);
  const shifts = (await api('/driver-shift?size=100')).body.data.items;
  const taken = new Set(shifts.map((s) => s.truck_id));
  const free = drivers.filter((d) => !shifts.some((s) => s.driver_id === d.id));
  for (const truck of trucks.filter((t) => !taken.has(t.id))) {
    const driver = free.shift();
    if (!driver) break;
    const made = await api('/driver-shift', { method: 'POST', body: JSON.stringify({ driver_id: driver.id, truck_id: truck.id, days: [1, 2, 3, 4, 5, 6, 7], start: '05:00:00', end: '19:00:00' }) });
    if (made.status === 422) free.unshift(driver); // a trailer: no driver of its own
  }
  const started = await api('/route-plan', { method: 'POST', body: JSON.stringify({ planned_date: day, seconds: 5 }) });
  assert.ok([201, 409].includes(started.status), JSON.stringify(started.body));
  for (let i = 0; i < 120; i += 1) {
    const p = (await api(`/route-plan?planned_date=${day}`)).body.data.items[0];
    if (['ready', 'stopped'].includes(p.status) && withRoutes(p)) return p;
    assert.notEqual(p.status, 'failed', p.error);
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('no plan of the day within 2 minutes (is the worker running?)');
}

before(async () => {
  server = await ensureServer();
  browser = await launch();
  admin = await apiLogin(DEMO.admin);
  const s = await api('/routing-settings');
  expectOk(s, 'routing settings');
  saved = s.body.data;
  plan = await dayPlan();
});

after(async () => {
  if (saved) await setTiles({ map_style_url: saved.map_style_url, map_tile_url: saved.map_tile_url, map_attribution: saved.map_attribution });
  await browser?.close();
  await server?.stop();
});

/** A page whose map requests are answered here (never the internet). */
async function mapPage(viewport, allow = []) {
  const opened = await openPage(browser, { viewport, allow });
  const requests = [];
  await opened.context.route('**/e2e-map/**', (route) => {
    const url = route.request().url();
    requests.push(url);
    if (url.endsWith('/style.json')) return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(STYLE) });
    if (url.endsWith('.png')) return route.fulfill({ status: 200, contentType: 'image/png', body: TILE });
    return route.fulfill({ status: 404, contentType: 'application/json', body: '{"detail":"Not found"}' });
  });
  // Nothing leaves this machine: a request to another host fails the test.
  const outside = [];
  opened.context.on('request', (r) => {
    const u = new URL(r.url());
    if (!['127.0.0.1', 'localhost'].includes(u.hostname) && !['data:', 'blob:'].includes(u.protocol)) outside.push(r.url());
  });
  return { ...opened, requests, outside };
}

/** Pixels of a colour in a PNG, counted by the browser in a blank page (no CSP there). */
async function countColor(png, [r, g, b], tolerance = 24) {
  const page = await browser.newPage();
  try {
    return await page.evaluate(
      async ({ b64, rgb, tol }) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width;
        c.height = img.height;
        const ctx = c.getContext('2d');
        ctx.drawImage(img, 0, 0);
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - rgb[0]) <= tol && Math.abs(d[i + 1] - rgb[1]) <= tol && Math.abs(d[i + 2] - rgb[2]) <= tol) n += 1;
        return n;
      },
      { b64: png.toString('base64'), rgb: [r, g, b], tol: tolerance },
    );
  } finally {
    await page.close();
  }
}

const placedStops = (p) => p.plan.routes.flatMap((r) => r.visits.filter((v) => v.kind === 'stop' && v.lat != null && v.lng != null));

describe('FuelDesk route planning: the map on MapLibre', { concurrency: false }, () => {
  test('a style URL in the settings: the plan page draws the routes with MapLibre (canvas, lines, numbered markers)', async () => {
    assert.equal(await browser.newPage().then(async (p) => {
      const ok = await p.evaluate(() => !!document.createElement('canvas').getContext('webgl2'));
      await p.close();
      return ok;
    }), true, 'this chromium has WebGL (else the fallback test below is what holds)');
    await setTiles({ map_style_url: STYLE_URL, map_tile_url: '', map_attribution: 'E2E test style' });
    const { page, errors, requests, outside } = await mapPage(DESKTOP);
    await useSession(page, admin, `/dispatch-center/plan?date=${day}`);
    await page.getByTestId('plan-summary').waitFor({ timeout: 20_000 });
    const map = page.getByTestId('route-maplibre');
    await map.waitFor({ timeout: 20_000 });
    await page.locator('[data-testid="route-maplibre"][data-map-state="ready"]').waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId('route-drawing').count(), 0, 'no plain drawing beside the map');
    assert.ok(requests.some((u) => u.endsWith('/e2e-map/style.json')), 'the style came from the settings URL');

    // The canvas, sized to its box.
    const canvas = map.locator('canvas.maplibregl-canvas');
    const box = await canvas.boundingBox();
    assert.ok(box && box.width > 300 && box.height > 300, `the canvas is drawn (${JSON.stringify(box)})`);
    // Every route is a line MapLibre rendered; every placed stop is a numbered marker.
    const routes = plan.plan.routes.filter((r) => r.visits.filter((v) => v.lat != null).length >= 2);
    assert.equal(Number(await map.getAttribute('data-rendered-lines')), routes.length);
    assert.ok((await map.locator('[data-kind="yard"]').count()) >= 1, 'the yards are markers');
    const loose = plan.plan.unplanned.length;
    assert.ok(Number(await map.getAttribute('data-rendered-loose')) <= loose, 'not-planned orders drawn (those with coordinates)');
    const markers = map.locator('[data-kind="stop"]');
    assert.equal(await markers.count(), placedStops(plan).length);
    assert.equal(await markers.first().innerText(), '1');
    assert.match(await markers.first().getAttribute('aria-label'), /^1\. /);
    // No in-delivery / keep-full rings unless the payload flags a stop so.
    const flagged = plan.plan.routes.flatMap((r) => r.visits).filter((v) => v.in_delivery || v.keep_full || v.optional).length;
    if (flagged === 0) assert.equal(await map.locator('[data-in-delivery], [data-keep-full]').count(), 0);
    await page.getByRole('list', { name: 'Legend' }).waitFor();
    await shot(page, 'routing-map-maplibre-desktop');

    // WebGL really drew the lines: with the markers hidden, the first route's colour is on the canvas.
    await map.locator('.maplibregl-marker').evaluateAll((els) => els.forEach((e) => (e.style.visibility = 'hidden')));
    const pixels = await countColor(await canvas.screenshot(), FIRST_ROUTE_COLOR);
    assert.ok(pixels > 40, `the first route's line is painted (${pixels} px of its colour)`);
    assert.deepEqual(outside, [], 'nothing fetched from outside this machine');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('raster tiles from a tile URL, at phone width', async () => {
    await setTiles({ map_style_url: '', map_tile_url: TILE_URL, map_attribution: 'E2E tiles' });
    const { page, errors, requests, outside } = await mapPage(PHONE);
    await useSession(page, admin, `/dispatch-center/plan?date=${day}`);
    await page.getByTestId('plan-summary').waitFor({ timeout: 20_000 });
    const map = page.getByTestId('route-maplibre');
    await page.locator('[data-testid="route-maplibre"][data-map-state="ready"]').waitFor({ timeout: 30_000 });
    assert.ok(requests.some((u) => /\/e2e-map\/tiles\/\d+\/\d+\/\d+\.png$/.test(u)), 'tiles were asked of the tile URL');
    await map.scrollIntoViewIfNeeded();
    const box = await map.boundingBox();
    assert.ok(box && box.width <= PHONE.width && box.width > 300, `the map fits the phone (${JSON.stringify(box)})`);
    assert.equal(await map.locator('[data-kind="stop"]').count(), placedStops(plan).length);
    // (The page as a whole is not checked for sideways scroll here: the truck cards' hidden "ETA"
    // label is a plan-page matter, not the map's.)
    assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width + 1, 'the map is inside the screen');
    await shot(page, 'routing-map-maplibre-phone');
    assert.deepEqual(outside, []);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('a style that does not load: the plain drawing with a note', async () => {
    await setTiles({ map_style_url: MISSING_STYLE_URL, map_tile_url: '', map_attribution: '' });
    const { page, errors } = await mapPage(DESKTOP, ['missing-style.json', '404']);
    await useSession(page, admin, `/dispatch-center/plan?date=${day}`);
    await page.getByTestId('plan-summary').waitFor({ timeout: 20_000 });
    const fallback = page.getByTestId('route-map-fallback');
    await fallback.waitFor({ timeout: 30_000 });
    await fallback.getByText(/The map tiles could not be loaded/).waitFor();
    await fallback.getByRole('img', { name: /Map of the proposed plan/ }).waitFor();
    assert.equal(await page.getByTestId('route-maplibre').count(), 0);
    await fallback.scrollIntoViewIfNeeded();
    await shot(page, 'routing-map-fallback-desktop');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('a map style on a site the page\'s security policy would block is refused when saved, on its field', async () => {
    const before = (await api('/routing-settings')).body.data.map_style_url;
    const { page, errors } = await openPage(browser, { viewport: DESKTOP, allow: ['422'] });
    await useSession(page, admin, '/company-settings/routing');
    const form = page.getByRole('form', { name: 'Routing settings' });
    await form.waitFor({ timeout: 20_000 });
    const field = form.getByLabel('Map style URL (MapLibre)');
    // Which sites the server allows is said before anyone types (this server: only its own).
    await form.getByText(/^Allowed(: this site only| sites: this one, )/).waitFor();
    await field.fill('https://tiles.elsewhere.example/styles/basic.json');
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/routing-settings') && r.request().method() === 'PUT');
    await form.getByRole('button', { name: 'Save settings' }).click();
    const res = await answered;
    assert.equal(res.status(), 422);
    assert.match((await res.json()).detail, /^Browsers would refuse the map style URL: its site https:\/\/tiles\.elsewhere\.example is not allowed/);
    await form.getByText('https://tiles.elsewhere.example is not allowed by this server\'s security policy (CSP_CONNECT_SRC)').waitFor();
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    await page.getByText(/Ask your FuelDesk operator to add https:\/\/tiles\.elsewhere\.example to CSP_CONNECT_SRC/).first().waitFor();
    await field.scrollIntoViewIfNeeded();
    await settleAnimations(page);
    await shot(page, 'routing-settings-map-refused-desktop');
    const now = (await api('/routing-settings')).body.data;
    assert.equal(now.map_style_url, before, 'nothing was saved');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
