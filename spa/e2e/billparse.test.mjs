// Bill parser end to end: upload two generated supplier invoices on /invoice-parse, wait until the
// worker has read both, open a review, correct the bill number, create the bill, open it; the upload
// and review screens at desktop and phone width (spa/artifacts/billparse-*.png).
//   E2E_BASE_URL (default http://127.0.0.1:8000); the server (with its worker) is started when none answers.
// The PDFs come from the parser's own test generator (tenants/billparse/tests/invoicegen.py).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { DEMO, DESKTOP, PHONE, apiLogin, launch, openPage, shot, unique, useSession } from './lib.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PYTHON = process.env.E2E_PYTHON || join(ROOT, '.venv/bin/python');

let server;
let browser;
let admin;
let dir;
let files;

function writeInvoices(target) {
  const script = [
    'import sys',
    'sys.path.insert(0, ".")',
    'from tenants.billparse.tests.invoicegen import make_invoice',
    'for i, (layout, seed) in enumerate([("A", 11), ("B", 12)]):',
    '    pdf, _ = make_invoice(layout, seed)',
    '    open(f"{sys.argv[1]}/e2e-invoice-{i + 1}.pdf", "wb").write(pdf)',
  ].join('\n');
  execFileSync(PYTHON, ['-c', script, target], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  return [join(target, 'e2e-invoice-1.pdf'), join(target, 'e2e-invoice-2.pdf')];
}

/** Waits until the rendered invoice page has loaded beside the form. */
async function pageImage(page) {
  const img = page.getByRole('img', { name: /^Page 1 of the invoice/ });
  await img.waitFor({ timeout: 15_000 });
  await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await img.elementHandle(), { timeout: 15_000 });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'billparse-e2e-'));
  files = writeInvoices(dir);
  server = await ensureServer();
  browser = await launch();
  admin = await apiLogin(DEMO.admin);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('FuelDesk bill parser', { concurrency: false }, () => {
  test('upload two invoices, review one, correct it, create the bill and open it', async () => {
    const { page, errors } = await openPage(browser, { viewport: DESKTOP, allow: ['409', 'status of 4'] });
    await useSession(page, admin, '/invoice-parse');
    await page.getByRole('heading', { level: 1, name: 'Bill Parser' }).waitFor({ timeout: 20_000 });

    await page.getByTestId('parse-input').setInputFiles(files);
    const batch = page.getByTestId('parse-batch');
    await batch.waitFor({ timeout: 15_000 });
    const rows = batch.getByTestId('parse-file');
    await assert.doesNotReject(rows.nth(1).waitFor({ timeout: 15_000 }), 'both files are listed');
    assert.equal(await rows.count(), 2);
    // Both read by the worker (parsed or failed: neither still queued or parsing).
    await page.waitForFunction(
      () => {
        const r = [...document.querySelectorAll('[data-testid="parse-batch"] [data-testid="parse-file"]')];
        return r.length === 2 && r.every((e) => ['parsed', 'failed'].includes(e.getAttribute('data-status') ?? ''));
      },
      undefined,
      { timeout: 30_000, polling: 250 },
    );
    const statuses = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    assert.deepEqual(statuses, ['parsed', 'parsed'], 'both invoices were read');
    await shot(page, 'billparse-upload-desktop');

    const review = rows.first().locator('a', { hasText: 'Review' });
    const reviewPath = await review.getAttribute('href');
    assert.match(reviewPath ?? '', /^\/invoice-parse\/\d+$/);
    await review.click();
    await page.getByRole('heading', { level: 1, name: /^Review / }).waitFor({ timeout: 15_000 });
    await page.getByTestId('field-bill_number').waitFor();
    await pageImage(page);
    await shot(page, 'billparse-review-desktop');

    // The same screens at phone width, in their own page (the shell changes with the width).
    const phone = await openPage(browser, { viewport: PHONE });
    await useSession(phone.page, admin, '/invoice-parse');
    await phone.page.getByTestId('recent-documents').getByTestId('parse-file').first().waitFor({ timeout: 20_000 });
    await shot(phone.page, 'billparse-upload-phone');
    await phone.page.goto(reviewPath);
    await phone.page.getByTestId('field-bill_number').waitFor({ timeout: 15_000 });
    await pageImage(phone.page);
    await shot(phone.page, 'billparse-review-phone');
    assert.deepEqual(phone.errors, []);
    await phone.context.close();

    // The demo's suppliers are not the generator's: pick one when the parser could not match it.
    if ((await page.getByTestId('field-supplier_id').inputValue()) === '') {
      await page.getByRole('combobox', { name: 'Supplier' }).click();
      await page.getByRole('option').nth(1).click();
      await page.getByRole('listbox').waitFor({ state: 'hidden' });
    }
    // Correct one field: the bill number (unique so the test can run again on the same database).
    const billNumber = unique('E2E-BILL-');
    await page.getByLabel('Bill number').fill(billNumber);
    assert.equal(await page.getByTestId('field-bill_number').inputValue(), billNumber);

    await page.getByRole('button', { name: 'Create bill' }).click();
    await page.getByRole('alert').filter({ hasText: `Bill ${billNumber} created` }).first().waitFor({ timeout: 15_000 });
    await page.locator('[role="alert"] a', { hasText: 'Open bill' }).first().click();
    await page.waitForURL(/\/purchase-order\/bills\/\d+/, { timeout: 15_000 });
    await page.getByText(billNumber).first().waitFor({ timeout: 15_000 });

    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('a bill whose lines and taxes do not add up to the total needs a reason, kept on the bill', async () => {
    // Issue 23: the screen warned "Lines + taxes ≠ total" and "Create bill" still went through.
    const { page, errors } = await openPage(browser, { viewport: DESKTOP, allow: ['409', 'status of 4'] });
    await useSession(page, admin, '/invoice-parse');
    await page.getByRole('heading', { level: 1, name: 'Bill Parser' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('parse-input').setInputFiles([files[1]]);
    const row = page.getByTestId('parse-batch').getByTestId('parse-file').first();
    await row.waitFor({ timeout: 15_000 });
    await page.waitForFunction(
      () => document.querySelector('[data-testid="parse-batch"] [data-testid="parse-file"]')?.getAttribute('data-status') === 'parsed',
      undefined,
      { timeout: 30_000, polling: 250 },
    );
    await row.locator('a', { hasText: 'Review' }).click();
    await page.getByTestId('field-bill_number').waitFor({ timeout: 15_000 });
    if ((await page.getByTestId('field-supplier_id').inputValue()) === '') {
      await page.getByRole('combobox', { name: 'Supplier' }).click();
      await page.getByRole('option').nth(1).click();
      await page.getByRole('listbox').waitFor({ state: 'hidden' });
    }
    const billNumber = unique('E2E-OVR-');
    await page.getByLabel('Bill number').fill(billNumber);
    assert.match(await page.getByTestId('totals-check').innerText(), /= total/, 'as read, the bill adds up');
    assert.equal(await page.getByTestId('totals-disagree').count(), 0);

    await page.getByRole('button', { name: 'Remove tax 1' }).click(); // a tax left out
    const warning = page.getByTestId('totals-disagree');
    await warning.waitFor();
    assert.match(await warning.innerText(), /The lines and taxes come to \$[\d,]+\.\d\d but the bill's total is \$[\d,]+\.\d\d/);
    const create = page.getByRole('button', { name: 'Create bill anyway' });
    assert.equal(await create.isDisabled(), true, 'no reason given: the bill cannot be created');
    await shot(page, 'billparse-total-differs-desktop');
    const reason = 'Excise tax billed on a separate invoice';
    await page.getByTestId('override-reason').fill(reason);
    assert.equal(await create.isDisabled(), false);
    await create.click();
    await page.getByRole('alert').filter({ hasText: `Bill ${billNumber} created` }).first().waitFor({ timeout: 15_000 });
    await page.locator('[role="alert"] a', { hasText: 'Open bill' }).first().click();
    await page.waitForURL(/\/purchase-order\/bills\/\d+/, { timeout: 15_000 });
    const kept = page.getByTestId('total-override');
    await kept.waitFor({ timeout: 15_000 });
    assert.match(await kept.innerText(), new RegExp(`Reason: ${reason}`));
    await shot(page, 'billparse-total-override-bill-desktop');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
