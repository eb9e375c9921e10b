// The template designer drives the real documents, through the real server: build an invoice
// template by drag and drop (real mouse events), preview it with a real invoice (the server's
// HTML), set it as the invoice default, then print that invoice with it as a PDF (pdftoppm → PNG
// in spa/artifacts/, looked at). Runs in the demo company (its delivered order DEMO-1008 is
// invoiced) and puts the previous default back at the end.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { ARTIFACTS, BASE_URL, DEMO, PHONE, apiLogin, launch, openPage, shot, unique, useSession } from './lib.mjs';

let server;
let browser;
let session;
let previousDefault;
let madeTemplate;

async function api(path, { method = 'GET', body, accept = 'application/json' } = {}) {
  return fetch(`${BASE_URL}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${session.access_token}`, 'Content-Type': 'application/json', Accept: accept },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function drag(page, source, target, { dx = 0, dy = 0 } = {}) {
  await source.scrollIntoViewIfNeeded();
  const from = await source.boundingBox();
  const to = await target.boundingBox();
  assert.ok(from && to, 'drag source and target are on screen');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 8, from.y + from.height / 2 + 8, { steps: 4 });
  await page.mouse.move(to.x + dx, to.y + dy, { steps: 12 });
  await page.mouse.up();
}

async function dragBy(page, source, dx, dy) {
  const box = await source.boundingBox();
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 10 });
  await page.mouse.up();
}

/** The demo's delivered order, invoiced (create is idempotent: run again, it brings it up to date). */
async function demoInvoice() {
  const orders = await (await api('/sales-order/sales-orders?search=DEMO-1008')).json();
  const order = orders.data.items[0];
  assert.ok(order, 'the demo has its delivered order DEMO-1008');
  const r = await api(`/invoice/create?sales_order_id=${order.id}`, { method: 'POST' });
  const body = await r.json();
  if (r.status === 200) return body.data;
  // Already invoiced and issued in an earlier run: find it.
  const list = await (await api(`/invoice?search=${encodeURIComponent(order.number ?? 'DEMO-1008')}`)).json();
  const found = list.data.items.find((i) => i.sales_order_id === order.id);
  assert.ok(found, `an invoice of DEMO-1008: ${r.status} ${JSON.stringify(body)}`);
  return found;
}

before(async () => {
  server = await ensureServer();
  browser = await launch();
  session = await apiLogin(DEMO.admin);
});

after(async () => {
  // The demo company keeps its own default invoice template.
  if (session && previousDefault) await api(`/template/${previousDefault}/default`, { method: 'POST' });
  if (session && madeTemplate) await api(`/template/${madeTemplate}`, { method: 'DELETE' });
  await browser?.close();
  await server?.stop();
});

describe('template designer', { concurrency: false }, () => {
  test('drag and drop an invoice template, preview a real invoice, make it the default, print the invoice', async () => {
    const invoice = await demoInvoice();
    const templates = await (await api('/template?type=invoice')).json();
    previousDefault = templates.data.items.find((t) => t.isDefault)?.id;

    const { page, errors, context } = await openPage(browser);
    await useSession(page, session, '/template-designer');
    await page.getByRole('heading', { name: 'Template Designer' }).waitFor();
    const canvas = page.getByTestId('designer-canvas');
    await canvas.waitFor();
    await page.getByTestId('default-chip').waitFor();

    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-component-id]').length === 0);
    await drag(page, page.locator('[data-palette="image:company.logo"]'), canvas, { dx: 40, dy: 40 });
    await drag(page, page.locator('[data-palette="text"]'), canvas, { dx: 520, dy: 40 });
    await drag(page, page.locator('[data-palette="field:document.number"]'), canvas, { dx: 520, dy: 90 });
    await drag(page, page.locator('[data-palette="field:customer.name"]'), canvas, { dx: 40, dy: 170 });
    await drag(page, page.locator('[data-palette="table:line_items"]'), canvas, { dx: 30, dy: 240 });
    await drag(page, page.locator('[data-palette="field:totals.total"]'), canvas, { dx: 480, dy: 520 });
    const items = page.locator('[data-component-id]');
    await page
      .waitForFunction(() => document.querySelectorAll('[data-component-id]').length === 6, null, { timeout: 5000 })
      .catch(async (err) => {
        await shot(page, 'e2e-designer-drag-failure');
        const ids = await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-component-id')));
        throw new Error(`components after the drags: ${ids.join(', ')}: ${err.message}`);
      });
    // Edit the text, move it with the mouse; undo puts it back, redo moves it again.
    const text = page.locator('[data-component-type="text"]');
    await text.click();
    await page.getByLabel('Text', { exact: true }).fill('INVOICE');
    const before = await text.boundingBox();
    await dragBy(page, text, -60, 30);
    const moved = await text.boundingBox();
    assert.ok(moved.x < before.x - 20 && moved.y > before.y + 10, `the text moved: ${JSON.stringify([before, moved])}`);
    await page.getByRole('button', { name: 'Undo' }).click();
    assert.equal(Math.round((await text.boundingBox()).x), Math.round(before.x));
    await page.getByRole('button', { name: 'Redo' }).click();
    assert.equal(await items.count(), 6);

    const name = unique('E2E invoice ');
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Template created successfully').waitFor();

    // Preview with the real invoice: the server's HTML of this template with its data.
    await page.locator('#preview-source').click();
    await page.getByRole('option', { name: new RegExp(invoice.invoice_no) }).click();
    await page.getByRole('button', { name: 'Preview' }).click();
    const frame = page.frameLocator('iframe[title="Print preview"]');
    await frame.getByText('INVOICE', { exact: true }).waitFor();
    await frame.getByText(invoice.invoice_no).first().waitFor();
    await frame.getByText('Cajun Marine Services').first().waitFor();
    await shot(page, 'e2e-designer-preview-real-desktop');
    await page.getByRole('button', { name: 'Preview' }).click();

    await page.getByRole('button', { name: 'Set as default' }).click();
    await page.getByText(`'${name}' is now the default invoice template`).waitFor();
    await page.getByTestId('default-chip').waitFor();
    const list = await (await api('/template?type=invoice')).json();
    const chosen = list.data.items.find((t) => t.isDefault);
    madeTemplate = chosen.id;
    assert.equal(chosen.name, name);
    assert.equal(chosen.components.length, 6);
    assert.deepEqual(errors, [], errors.join('\n'));
    await context.close();

    // The server prints the invoice with the new default: the PDF, then a PNG of its first page.
    const pdf = await api(`/template/print/invoice/${invoice.id}`, { accept: 'application/pdf' });
    assert.equal(pdf.status, 200);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    assert.equal(bytes.subarray(0, 5).toString(), '%PDF-');
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(`${ARTIFACTS}e2e-designer-invoice.pdf`, bytes);
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', `${ARTIFACTS}e2e-designer-invoice.pdf`, `${ARTIFACTS}e2e-designer-invoice`]);
    const text1 = execFileSync('pdftotext', ['-layout', `${ARTIFACTS}e2e-designer-invoice.pdf`, '-']).toString();
    assert.match(text1, /INVOICE/);
    assert.ok(text1.includes(invoice.invoice_no), text1);
    assert.ok(text1.includes('Cajun Marine Services'), text1);

    const phone = await openPage(browser, { viewport: PHONE });
    await useSession(phone.page, session, '/template-designer');
    await phone.page.getByTestId('designer-canvas').waitFor();
    await phone.page.waitForFunction(() => document.querySelectorAll('[data-component-id]').length === 6);
    await shot(phone.page, 'e2e-designer-phone');
    await phone.context.close();
  });
});
