// Gmail sending through the company's Google account, against the local fake Google that
// infra/run.py starts when GOOGLE_DISCOVERY_URL is not set (docs/google.md): connect through the
// fake's consent redirect, an invoice email delivered through the fake Gmail, the grant revoked at
// the fake -> the next email is held with its reason and the screen says Reconnect, reconnect ->
// the held email is sent, once. Needs the worker (make run / the CI e2e server run one).
// Screenshots at desktop and phone width in spa/artifacts/.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { BASE_URL, DEMO, PHONE, apiLogin, axe, launch, openPage, shot, unique, useSession } from './lib.mjs';

const REASON = 'Google account disconnected — reconnect at Google Authentication';

let server;
let browser;
let session;
let fake; // the fake Google's origin, from the consent URL the server builds

async function api(path, { method = 'GET', body } = {}) {
  const headers = { Authorization: `Bearer ${session.access_token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(`${BASE_URL}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

async function control(path, { method = 'GET' } = {}) {
  const r = await fetch(`${fake}/_control/${path}`, { method });
  assert.equal(r.status, 200, `fake Google ${path}`);
  return r.json();
}

/** Waits (up to `timeoutMs`) until `probe` answers something truthy; the thing checked, not a time. */
async function until(probe, what, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function demoInvoice() {
  const orders = await api('/sales-order/sales-orders?search=DEMO-1008');
  const order = orders.body.data.items[0];
  assert.ok(order, 'the demo has its delivered order DEMO-1008');
  const r = await api(`/invoice/create?sales_order_id=${order.id}`, { method: 'POST' });
  if (r.status === 200) return r.body.data;
  const list = await api('/invoice?size=100');
  const found = list.body.data.items.find((i) => i.sales_order_id === order.id);
  assert.ok(found, `an invoice of DEMO-1008: ${r.status} ${JSON.stringify(r.body)}`);
  return found;
}

async function emailInvoice(invoice, subject) {
  const r = await api('/email/', {
    method: 'POST',
    body: [{ category: 'invoice', parent_id: invoice.id, recipient_email: 'ap@e2e-google.fueldesk.test', subject, body: 'Your invoice.' }],
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.data[0];
}

const gmailSent = async (subject) => (await control('messages')).messages.filter((m) => m.subject === subject);

before(async () => {
  server = await ensureServer();
  browser = await launch();
  session = await apiLogin(DEMO.admin);
  await api('/google-authentication/disconnect', { method: 'POST' }); // a clean start on a reused server
});

after(async () => {
  if (session) await api('/google-authentication/disconnect', { method: 'POST' }); // back to SMTP for the other tests
  await browser?.close();
  await server?.stop();
});

/** On the Google Authentication page: click Connect/Reconnect, pass the fake's consent, land back. */
async function connectThroughGoogle(page, button) {
  const consent = page.waitForRequest((req) => req.url().includes('/o/oauth2/v2/auth'));
  const posted = page.waitForResponse((res) => res.url().endsWith('/api/google-authentication/callback'));
  await page.getByRole('button', { name: button }).click();
  fake = new URL((await consent).url()).origin;
  const answer = await posted;
  assert.equal(answer.status(), 200, await answer.text());
  await page.getByTestId('google-state').filter({ hasText: 'Connected' }).waitFor();
}

describe('Google Authentication', { concurrency: false }, () => {
  test('connect, send through Gmail, a revoked grant holds the email, reconnect sends it once', async () => {
    const { page, errors, context } = await openPage(browser);
    await useSession(page, session, '/google-authentication');
    await page.getByTestId('google-state').filter({ hasText: 'Not connected' }).waitFor();
    await shot(page, 'e2e-google-disconnected-desktop');

    await connectThroughGoogle(page, 'Connect Google account');
    assert.equal(new URL(page.url()).search, '', 'the code and state are gone from the address');
    const [consent] = (await control('authorizations')).authorizations.slice(-1);
    assert.ok(consent.scope.split(' ').includes('https://www.googleapis.com/auth/gmail.send'));
    assert.equal(consent.access_type, 'offline');
    assert.equal(consent.prompt, 'consent');
    const identity = (await control('state')).identity;
    await page.getByTestId('google-email').filter({ hasText: identity.email }).waitFor();
    await shot(page, 'e2e-google-connected-desktop');
    assert.deepEqual(await axe(page), []);

    // An invoice email goes out through the fake Gmail.
    const invoice = await demoInvoice();
    const first = unique('Invoice via Gmail ');
    const sentRow = await emailInvoice(invoice, first);
    const delivered = await until(async () => (await gmailSent(first)).length > 0 && gmailSent(first), 'the email at the fake Gmail');
    assert.equal(delivered.length, 1);
    assert.equal(delivered[0].to, 'ap <ap@e2e-google.fueldesk.test>');
    await until(async () => (await api(`/email/${sentRow.id}`)).body.data.status === 'sent', 'the email marked sent');

    // The user removes FuelDesk from their Google account: the next email is held, with the reason.
    await control('revoke', { method: 'POST' });
    const second = unique('Held invoice ');
    const heldRow = await emailInvoice(invoice, second);
    const held = await until(async () => {
      const e = (await api(`/email/${heldRow.id}`)).body.data;
      return e.status === 'held' && e;
    }, 'the email held');
    assert.equal(held.error, REASON);
    assert.deepEqual(await gmailSent(second), []);

    await page.reload();
    await page.getByTestId('google-state').filter({ hasText: 'Reconnect needed' }).waitFor();
    await page.getByTestId('google-reason').filter({ hasText: REASON }).waitFor();
    await page.getByTestId('google-held').waitFor();
    await shot(page, 'e2e-google-reconnect-desktop');
    const phone = await openPage(browser, { viewport: PHONE });
    await useSession(phone.page, session, '/google-authentication');
    await phone.page.getByTestId('google-reason').waitFor();
    await shot(phone.page, 'e2e-google-reconnect-phone');
    assert.deepEqual(phone.errors, [], phone.errors.join('\n'));
    await phone.context.close();

    // The email history shows why it waits.
    await page.goto(`/email/${heldRow.id}`);
    await page.getByText(`Held: ${REASON}`).waitFor();

    // Reconnect: the held email is sent, once.
    await page.goto('/google-authentication');
    await connectThroughGoogle(page, 'Reconnect');
    await until(async () => (await api(`/email/${heldRow.id}`)).body.data.status === 'sent', 'the held email sent');
    assert.equal((await gmailSent(second)).length, 1);
    assert.equal((await gmailSent(first)).length, 1);
    await page.reload();
    await page.getByTestId('google-state').filter({ hasText: 'Connected' }).waitFor();
    assert.equal(await page.getByTestId('google-held').count(), 0);

    const phoneConnected = await openPage(browser, { viewport: PHONE });
    await useSession(phoneConnected.page, session, '/google-authentication');
    await phoneConnected.page.getByTestId('google-email').waitFor();
    await shot(phoneConnected.page, 'e2e-google-connected-phone');
    await phoneConnected.context.close();

    assert.deepEqual(errors, [], errors.join('\n'));
    await context.close();
  });

  test('Sign in with Google as the demo admin (verified email matches)', async () => {
    const start = await fetch(`${BASE_URL}/api/login/google/start`, { method: 'POST' });
    assert.equal(start.status, 200);
    fake = new URL((await start.json()).data.authorization_url).origin;
    const r = await fetch(`${fake}/_control/identity`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: DEMO.admin.email, email_verified: true, sub: 'e2e-demo-admin' }),
    });
    assert.equal(r.status, 200);
    const { page, errors, context } = await openPage(browser, { viewport: PHONE });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with Google' }).waitFor();
    await shot(page, 'e2e-google-sign-in-phone');
    const answer = page.waitForResponse((res) => res.url().endsWith('/api/login/google'));
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    assert.equal((await answer).status(), 200);
    await page.waitForURL(/\/dashboard$/);
    assert.ok(await page.evaluate(() => window.localStorage.getItem('token')), 'signed in');
    await fetch(`${fake}/_control/reset`, { method: 'POST' });
    assert.deepEqual(errors, [], errors.join('\n'));
    await context.close();
  });
});
