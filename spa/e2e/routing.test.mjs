// Route planning end to end (issue 27): on the demo day, a dispatcher opens "Plan the day" from the
// dispatch center, runs the planner with a 10-second budget (the worker, with progress), sees the
// proposal beside the current plan (summary, trucks with loads and ETAs, the plain map), drags a stop
// and sees it re-evaluated, accepts one truck, and finds that truck's stops in that order back on the
// dispatch center. Screens at desktop and phone width. Needs the worker (make run runs one).
//   E2E_BASE_URL (default http://127.0.0.1:8000); the server is started when none answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { DEMO, DESKTOP, PHONE, apiCaller, apiLogin, axe, expectOk, launch, openPage, shot, useSession } from './lib.mjs';

let server;
let browser;
let admin;
const api = apiCaller(() => admin);
const day = new Date().toISOString().slice(0, 10);

before(async () => {
  server = await ensureServer();
  browser = await launch();
  admin = await apiLogin(DEMO.admin);
  // The planner plans a truck on the days a driver's shift names it: give the demo's drivers a shift
  // on their trucks every day of the week (what the settings screen's "Driver shifts" does).
  const trucks = (await api('/company-asset/all')).body.data.filter((t) => t.is_active && t.compartments.length > 0);
  const drivers = (await api('/driver/all')).body.data;
  const shifts = await api('/driver-shift?size=100');
  expectOk(shifts, 'driver shifts');
  const taken = new Set(shifts.body.data.items.map((s) => s.truck_id));
  const busy = new Set(shifts.body.data.items.map((s) => s.driver_id));
  const free = drivers.filter((d) => !busy.has(d.id));
  for (const truck of trucks.filter((t) => !taken.has(t.id)).slice(0, free.length)) {
    const driver = free.shift();
    const made = await api('/driver-shift', { method: 'POST', body: JSON.stringify({ driver_id: driver.id, truck_id: truck.id, days: [1, 2, 3, 4, 5, 6, 7], start: '05:00:00', end: '19:00:00' }) });
    // A trailer has compartments too but no driver of its own: the server refuses it, rightly.
    if (made.status === 422 && /not a truck/.test(made.body?.detail ?? '')) {
      free.unshift(driver);
      continue;
    }
    expectOk(made, 'a driver shift');
  }
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function dragTo(page, source, target) {
  const a = await source.boundingBox();
  const b = await target.boundingBox();
  assert.ok(a && b, 'both ends of the drag are visible');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 10, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 20 });
  await page.mouse.up();
}

describe('FuelDesk route planning', { concurrency: false }, () => {
  test('plan the day, see the plan beside the current one, adjust by drag, accept a truck, see it on the dispatch center', async () => {
    const { page, errors } = await openPage(browser, { viewport: DESKTOP, allow: ['409'] });
    await useSession(page, admin, '/dispatch-center');
    await page.getByRole('heading', { level: 1, name: 'Dispatch Center' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('dispatch-plan-day').click();
    await page.waitForURL(`**/dispatch-center/plan?date=${day}`);
    await page.getByRole('heading', { level: 1, name: 'Plan the day' }).waitFor();

    // A 10-second budget; the worker runs it with progress.
    await page.getByLabel('Time budget').click();
    await page.getByRole('option', { name: '10 seconds' }).click();
    const started = page.waitForResponse((r) => r.url().endsWith('/api/route-plan') && r.request().method() === 'POST');
    await page.getByTestId('plan-start').click();
    const start = await started;
    assert.equal(start.status(), 201, await start.text());
    assert.equal((await start.json()).data.seconds, 10);
    await page.getByRole('progressbar', { name: 'Planning progress' }).waitFor({ timeout: 10_000 });
    await shot(page, 'routing-running-desktop');
    await page.getByTestId('plan-status').filter({ hasText: /Ready|Stopped early/ }).waitFor({ timeout: 90_000 });

    // The proposal beside the current plan: the summary's four metrics and a sentence.
    const summary = page.getByTestId('plan-summary');
    await summary.waitFor();
    for (const k of ['miles', 'hours', 'trucks_used', 'late_stops']) await page.getByTestId(`plan-total-${k}`).waitFor();
    assert.match(await page.getByTestId('plan-diff-sentence').innerText(), /current plan|Nothing is planned|same as the current/);
    // The plain map: a line per planned truck.
    await page.getByRole('img', { name: /Map of the proposed plan/ }).waitFor();
    const cards = page.locator('section[aria-label^="Truck "]');
    const withStops = [];
    for (const card of await cards.all()) if ((await card.locator('[data-testid^="plan-stop-"]').count()) > 0) withStops.push(card);
    assert.ok(withStops.length >= 1, 'at least one truck has stops in the plan');
    assert.equal(await page.locator('[data-testid="route-drawing"] polyline').count(), await cards.count());
    // A truck card shows its loads (compartment -> product, gallons), ETAs and its utilization.
    const first = withStops[0];
    await first.getByText(/Load 1 at /).waitFor();
    assert.match(await first.locator('.MuiChip-label', { hasText: /^C\d+ / }).first().innerText(), /^C\d+ \S+ [\d,]+$/);
    await first.getByRole('progressbar', { name: /Utilization of / }).waitFor();
    assert.match(await first.locator('[data-testid^="plan-stop-"]').first().innerText(), /ETA\s*\d\d:\d\d/);
    // Keep-full: the demo has a tank due today next to the DEMO-RT orders: the planner takes it (a
    // "Keep-full" chip on a stop) or lists it under "Keep-full tanks not on the way".
    const chips = await page.getByTestId('keep-full-chip').count();
    const notOnWay = page.getByRole('region', { name: 'Keep-full tanks not on the way' });
    assert.ok(chips + (await notOnWay.count()) > 0, 'a keep-full stop or the "not on the way" list is shown');
    if (chips > 0) assert.match(await page.locator('[data-testid^="plan-stop-"][data-keep-full="true"]').first().innerText(), /Keep-full[\s\S]*[\d,]+ gal/);
    if ((await notOnWay.count()) > 0) {
      const toggle = notOnWay.getByRole('button', { name: /^Keep-full tanks not on the way \(\d+\)$/ });
      await toggle.click();
      await notOnWay.locator('[data-testid^="plan-keep-full-tank:"]').first().waitFor();
      await page.waitForTimeout(400); // the panel's opening animation
      await shot(page, 'routing-keep-full-not-on-the-way-desktop');
    }
    // An order in delivery is locked on its truck (the payload's `fixed`).
    const shownPlan = (await api(`/route-plan?planned_date=${day}`)).body.data.items[0].plan;
    const fixedStops = [...shownPlan.routes.flatMap((r) => r.visits.filter((v) => v.kind === 'stop' && v.fixed)), ...shownPlan.unplanned.filter((u) => u.in_delivery)];
    assert.equal(await page.locator('[data-fixed="true"]').count(), fixedStops.length);
    if (fixedStops.length > 0) await page.locator('[data-fixed="true"]').first().getByLabel('In delivery: stays on this truck').waitFor();
    assert.deepEqual(await axe(page), []);
    await shot(page, 'routing-plan-desktop');
    await first.scrollIntoViewIfNeeded();
    await shot(page, 'routing-trucks-desktop');

    // Adjust: drag a stop onto another stop of its truck; the evaluator answers new ETAs at once.
    const multi = [];
    for (const card of withStops) {
      const s = card.locator('[data-testid^="plan-stop-"]');
      // Two movable stops first (an order in delivery is locked: the page refuses to drag it).
      if ((await s.count()) >= 2 && !(await s.nth(0).getAttribute('data-fixed')) && !(await s.nth(1).getAttribute('data-fixed'))) multi.push(card);
    }
    if (multi.length > 0) {
      // In the middle of the screen: near an edge, dnd-kit scrolls the page under the pointer.
      await multi[0].locator('[data-testid^="plan-stop-"]').first().evaluate((e) => e.scrollIntoView({ block: 'center' }));
      const cardName = (await multi[0].locator('h3').innerText()).trim();
      const stops = multi[0].locator('[data-testid^="plan-stop-"]');
      const evaluated = page.waitForResponse((r) => /\/api\/route-plan\/\d+\/evaluate$/.test(r.url()));
      await dragTo(page, stops.nth(1), stops.nth(0));
      const ev = await evaluated;
      assert.equal(ev.status(), 200, await ev.text());
      const sent = JSON.parse(ev.request().postData());
      assert.ok(Array.isArray(sent.routes) && sent.routes.every((r) => Number.isInteger(r.truck_id) && Array.isArray(r.stop_ids)), 'every truck is sent with its stop ids');
      // The dragged truck is sent with its second stop first, the rest as planned.
      const proposal = (await api(`/route-plan?planned_date=${day}`)).body.data.items[0].plan;
      const dragged = proposal.routes.find((r) => r.truck_number === (cardName ?? ''));
      const ids = dragged.visits.filter((v) => v.kind === 'stop').map((v) => v.ref);
      assert.deepEqual(sent.routes.find((r) => r.truck_id === dragged.truck_id).stop_ids, [ids[1], ids[0], ...ids.slice(2)]);
      await page.getByRole('button', { name: 'Undo my changes' }).waitFor();
      await shot(page, 'routing-adjusted-desktop');
      await page.getByRole('button', { name: 'Undo my changes' }).click();
    }

    // Accept one truck: its stops are assigned in the plan's order.
    const truckName = (await first.locator('h3').innerText()).trim();
    const planned = [];
    for (const s of await first.locator('[data-testid^="plan-stop-"]').all()) planned.push((await s.getAttribute('data-testid')).replace('plan-stop-', ''));
    const accepted = page.waitForResponse((r) => /\/api\/route-plan\/\d+\/accept$/.test(r.url()));
    await first.getByRole('button', { name: `Accept ${truckName}` }).click();
    const acc = await accepted;
    assert.equal(acc.status(), 200, await acc.text());
    assert.deepEqual(JSON.parse(acc.request().postData()), { truck_ids: [(await acc.json()).data.trucks[0]] });
    await page.getByText(/Plan accepted: \d+ order\(s\) assigned on 1 truck\(s\)(, \d+ keep-full order\(s\) created)?/).waitFor();
    await first.getByText('Accepted', { exact: true }).waitFor();

    // The dispatch center shows that truck's stops, in the plan's order.
    await page.getByRole('link', { name: 'Dispatch center' }).click();
    const truckCard = page.getByTestId(`dispatch-truck-${truckName}`);
    await truckCard.waitFor({ timeout: 20_000 });
    const onTruck = await truckCard.locator('[data-testid^="dispatch-order-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid').replace('dispatch-order-', '')));
    // A keep-full stop ("tank:<id>") is its new order there.
    assert.equal(onTruck.length, planned.length);
    planned.forEach((p, i) => (p.startsWith('tank:') ? assert.match(onTruck[i], /^SO-/) : assert.equal(onTruck[i], p)));
    const firstStop = await truckCard.locator('[data-testid^="dispatch-order-"]').first().innerText();
    assert.match(firstStop, new RegExp(`^1\\. ${onTruck[0]}`));
    await shot(page, 'routing-dispatch-after-accept-desktop');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('the plan and the settings at phone width', async () => {
    const { page, errors } = await openPage(browser, { viewport: PHONE });
    await useSession(page, admin, `/dispatch-center/plan?date=${day}`);
    await page.getByTestId('plan-summary').waitFor({ timeout: 20_000 });
    await page.getByRole('img', { name: /Map of the proposed plan/ }).waitFor();
    await shot(page, 'routing-plan-phone');
    const kf = page.locator('[data-testid^="plan-stop-"][data-keep-full="true"]');
    if ((await kf.count()) > 0) {
      await kf.first().scrollIntoViewIfNeeded();
      await shot(page, 'routing-keep-full-phone');
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `no sideways scroll at phone width (${overflow}px)`);
    await useSession(page, admin, '/company-settings/routing');
    await page.getByRole('heading', { level: 1, name: 'Route planning settings' }).waitFor({ timeout: 20_000 });
    await page.getByRole('heading', { name: 'Driver shifts' }).waitFor();
    await shot(page, 'routing-settings-phone');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
