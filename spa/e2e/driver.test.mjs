// The driver portal offline (issue 10): a phone-sized driver picks a truck, sees today's stops,
// goes offline, delivers one with a signature drawn by the mouse and a photo, reloads offline (the
// queue survives, the banner counts it), comes back online, and the office sees the order delivered
// exactly once; replaying the same action changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { makePng } from './png.mjs';
import { BASE_URL, DEMO, PHONE, apiLogin, launch, openPage, shot, signIn } from './lib.mjs';

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

async function api(token, path, { method = 'GET', body } = {}) {
  const r = await fetch(`${BASE_URL}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: await r.json() };
}

async function firstId(token, path) {
  const { body } = await api(token, path);
  const items = Array.isArray(body.data) ? body.data : body.data.items;
  assert.ok(items.length > 0, `nothing at ${path}`);
  return items[0].id;
}

/** A fresh stop for the demo driver today on T-102, made by the office (so every run has one). */
async function officeOrder(token) {
  const [driverId, truckId, customerId, productId] = await Promise.all([
    firstId(token, '/driver?search=Dave%20Driver'),
    firstId(token, '/company-asset?search=T-102'),
    firstId(token, '/customer/customers?search=Gulf%20Freight'),
    firstId(token, '/product/products/?search=ULSD-CLR'),
  ]);
  const d = new Date();
  const today = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  const made = await api(token, '/sales-order/sales-orders', {
    method: 'POST',
    body: { customer_id: customerId, planned_date: today, po_number: `E2E-DRV-${Date.now()}`, line_items: [{ product_id: productId, quantity: '120' }] },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.data.id;
  const verified = await api(token, `/sales-order/sales-orders/${id}/status?status=verified&override_credit=true&reason=e2e`, { method: 'PUT' });
  assert.equal(verified.status, 200, JSON.stringify(verified.body));
  const assigned = await api(token, `/sales-order/sales-orders/${id}/assign`, { method: 'POST', body: { driver_id: driverId, truck_id: truckId } });
  assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
  return { id, truckId };
}

/** The queued actions as IndexedDB holds them (read in the page). */
function queued(page) {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('fueldesk-driver');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction('actions').objectStore('actions').getAll();
          req.onsuccess = () => {
            resolve(req.result);
            open.result.close();
          };
          req.onerror = () => reject(req.error);
        };
      }),
  );
}

describe('driver portal offline', { timeout: 120_000 }, () => {
  test('deliver offline with signature and photo, reload offline, sync once', async () => {
    const { id: orderId, truckId } = await officeOrder(admin.access_token);
    const { page, context, errors } = await openPage(browser, {
      viewport: PHONE,
      // Calls that fail on purpose while offline.
      allow: ['ERR_INTERNET_DISCONNECTED', 'Failed to load resource', '/api/'],
    });
    await signIn(page, DEMO.driver);
    await page.waitForURL((u) => new URL(u).pathname === '/todays-order');
    await page.getByRole('heading', { name: "Today's Orders" }).waitFor();

    // Pick the demo driver's truck for today (T-102) in the top bar's modal.
    await page.getByRole('button', { name: 'Change Trucks' }).click();
    const modal = page.getByRole('dialog', { name: 'Change Trucks' });
    await modal.getByText('T-102', { exact: true }).click();
    const filtered = page.waitForResponse((r) => r.url().includes('/todays-orders') && r.url().includes(`truck_ids=${truckId}`));
    await modal.getByRole('button', { name: 'Save' }).click();
    assert.equal((await filtered).status(), 200);
    await modal.waitFor({ state: 'detached' });
    const cards = page.locator('article[data-testid^="stop-"]');
    await cards.first().waitFor();
    assert.ok((await cards.count()) >= 1);
    const todo = page.getByTestId(`stop-${orderId}`);
    await todo.getByRole('button', { name: 'Deliver', exact: true }).waitFor();
    await shot(page, 'driver-390-stops');
    // Issue 23: the header is compact on a phone, names the truck by its number, keeps 'Change
    // Trucks' on one line; the driver's own stops read 1..n even when another driver's stop comes
    // first on the same truck (the demo's DEMO-1006 on T-102).
    const header = await page.getByTestId('driver-header').boundingBox();
    assert.ok(header.height <= 110, `driver header ${header.height}px of 844`);
    assert.deepEqual(await page.getByTestId('truck-chip').allInnerTexts(), ['T-102']);
    const change = await page.getByRole('button', { name: 'Change Trucks' }).boundingBox();
    assert.ok(change.height < 40, `'Change Trucks' wraps: ${change.height}px high`);
    const numbers = await page.getByTestId('stop-number').allInnerTexts();
    assert.deepEqual(numbers, numbers.map((_, i) => `Stop ${i + 1}`));

    // The app shell and the delivery form are cached by the service worker before going offline.
    await page.waitForFunction(
      async () => {
        if (!navigator.serviceWorker?.controller) return false;
        const cache = await caches.open('fueldesk-assets-v1');
        const keys = (await cache.keys()).map((r) => r.url);
        return keys.some((u) => u.includes('DeliveryDialog')) && (await caches.match('/__app-shell')) !== undefined;
      },
      null,
      { timeout: 30_000, polling: 500 },
    );

    await context.setOffline(true);
    await page.getByTestId('offline-banner').filter({ hasText: 'offline — 0 actions waiting' }).waitFor();

    // Deliver: quantities prefilled, signer, a signature drawn with the mouse, a photo.
    await todo.getByRole('button', { name: 'Deliver', exact: true }).click();
    const form = page.getByRole('dialog');
    try {
      await form.getByLabel("Signer's name").fill('Pat Receiver', { timeout: 10_000 });
    } catch (err) {
      await shot(page, 'driver-debug');
      console.log('DEBUG', errors, await page.evaluate(async () => (await (await caches.open('fueldesk-assets-v1')).keys()).map((r) => r.url)));
      throw err;
    }
    const pad = form.getByTestId('signature-pad');
    await pad.scrollIntoViewIfNeeded();
    const box = await pad.boundingBox();
    await page.mouse.move(box.x + 20, box.y + 120);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 20 + i * 18, box.y + 120 - (i % 2 ? 50 : 0), { steps: 3 });
    await page.mouse.up();
    await form.getByTestId('photo-input').setInputFiles({ name: 'tank.png', mimeType: 'image/png', buffer: makePng(96) });
    await form.getByTestId('photo-count').filter({ hasText: '1 photo attached' }).waitFor();
    await shot(page, 'driver-390-delivery-form');
    await form.getByRole('button', { name: 'Finish delivery' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByTestId('offline-banner').filter({ hasText: 'offline — 1 action waiting' }).waitFor();
    const stop = page.getByTestId(`stop-${orderId}`);
    await stop.getByText('Delivered — waiting to sync').waitFor();

    // Reload without a connection: the shell comes from the service worker, the queue from IndexedDB.
    await page.reload();
    await page.getByTestId('offline-banner').filter({ hasText: 'offline — 1 action waiting' }).waitFor();
    try {
      await page.getByTestId(`stop-${orderId}`).getByText('Delivered — waiting to sync').waitFor({ timeout: 10_000 });
    } catch (err) {
      await shot(page, 'driver-debug');
      console.log('DEBUG', errors);
      throw err;
    }
    await shot(page, 'driver-390-offline-reloaded');
    const [action] = await queued(page);
    assert.equal(action.kind, 'record_delivery');
    assert.equal(action.order_id, orderId);
    assert.deepEqual(
      action.files.map((f) => f.role),
      ['signature', 'photo'],
    );

    // Back online: the queue is sent, the stop shows delivered.
    await context.setOffline(false);
    await page.getByTestId(`stop-${orderId}`).getByText('Delivered', { exact: true }).waitFor({ timeout: 30_000 });
    assert.equal((await queued(page)).length, 0);
    await shot(page, 'driver-390-synced');

    // The office sees it delivered, exactly once, with the driver's quantities.
    const order = (await api(admin.access_token, `/sales-order/sales-orders/${orderId}`)).body.data;
    assert.equal(order.status, 'delivered');
    assert.equal(order.timeline.filter((e) => e.action === 'deliver').length, 1);
    assert.ok(order.line_items.every((l) => l.delivered_quantity !== null));
    // …and its delivery ticket with the proof from the phone (signature and the photo).
    const tickets = (await api(admin.access_token, `/delivery-ticket?sales_order_id=${orderId}`)).body.data.items;
    assert.equal(tickets.length, 1);
    assert.equal(tickets[0].signer_name, 'Pat Receiver');
    assert.match(tickets[0].signature_key, /\/signature\//);
    assert.equal(tickets[0].photo_keys.length, 1);

    // A replay of the same action (a phone that lost the answer) is answered, not applied again.
    const token = await page.evaluate(() => window.localStorage.getItem('token'));
    const replay = await api(token, '/driver-portal/actions', {
      method: 'POST',
      body: { actions: [{ client_action_id: action.client_action_id, kind: action.kind, order_id: orderId, order_version: action.order_version, payload: action.payload, taken_at: action.taken_at }] },
    });
    assert.equal(replay.status, 200);
    assert.equal(replay.body.data.results[0].replayed, true);
    assert.equal(replay.body.data.results[0].outcome, 'applied');
    const again = (await api(admin.access_token, `/sales-order/sales-orders/${orderId}`)).body.data;
    assert.equal(again.timeline.filter((e) => e.action === 'deliver').length, 1);

    // The daily summary counts it.
    await page.getByRole('link', { name: 'Daily summary' }).click();
    await page.getByRole('heading', { name: /Daily Summary/ }).waitFor();
    await page.getByTestId('deliveries-done').waitFor();
    assert.ok(Number(await page.getByTestId('deliveries-done').textContent()) >= 1);
    await shot(page, 'driver-390-summary');

    // The same screens at 360 px.
    await page.setViewportSize({ width: 360, height: 780 });
    await page.getByRole('link', { name: "Today's stops" }).click();
    await cards.first().waitFor();
    await shot(page, 'driver-360-stops');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false, 'no sideways scrolling at 360 px');
    assert.deepEqual(errors.filter((e) => !e.includes('net::') && !e.includes('Failed to fetch')), []);
    await context.close();
  });
});
