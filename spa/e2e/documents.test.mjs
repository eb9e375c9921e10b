// Email history through the real server: the /email history and detail. (The template designer's
// flow is e2e/designer.test.mjs.) Screenshots at desktop and phone width in spa/artifacts/.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { BASE_URL, PHONE, launch, openPage, shot, unique, useSession } from './lib.mjs';

let server;
let browser;
let session;

async function api(path, { method = 'GET', body, accept = 'application/json' } = {}) {
  const r = await fetch(`${BASE_URL}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${session.access_token}`, 'Content-Type': 'application/json', Accept: accept },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return r;
}

before(async () => {
  server = await ensureServer();
  browser = await launch();
  const email = `${unique('designer')}@e2e.fueldesk.test`;
  const r = await fetch(`${BASE_URL}/api/tenant`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ company_name: unique('Designer Fuel '), name: 'Dee Signer', email, password: 'Designer-pass-2026' }),
  });
  const body = await r.json();
  assert.equal(r.status, 201, JSON.stringify(body));
  session = body.data;
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// A small but real PDF, with its cross-reference table: the server opens every uploaded PDF (pypdf)
// and refuses one that only starts like a PDF.
function realPdf() {
  const objects = [
    '<</Type/Catalog/Pages 2 0 R>>',
    '<</Type/Pages/Kids[3 0 R]/Count 1>>',
    '<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>',
  ];
  let out = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

describe('email history', { concurrency: false }, () => {
  test('email history: both categories, newest first, and the detail with its attachment', async () => {
    const pdfFile = new FormData();
    pdfFile.append('file', new Blob([realPdf()], { type: 'application/pdf' }), 'invoice.pdf');
    pdfFile.append('purpose', 'attachment');
    const up = await fetch(`${BASE_URL}/api/storage/upload-file`, { method: 'POST', headers: { Authorization: `Bearer ${session.access_token}` }, body: pdfFile });
    const file = (await up.json()).data;
    const res = await api('/email/', {
      method: 'POST',
      body: [
        { category: 'invoice', parent_id: 1, recipient_email: 'ap@lonestar.test', subject: 'Invoice INV-000001', body: 'Attached.', attachments: [{ file_key: file.file_key, file_name: 'Lone-Star-INV-000001-2026-03-02.pdf' }] },
        { category: 'invoice_with_delivery_ticket', parent_id: 2, recipient_email: 'ops@lonestar.test', subject: 'Invoice INV-000002 with ticket', cc: ['Boss <boss@lonestar.test>'] },
      ],
    });
    assert.equal(res.status, 201);
    const { page, errors, context } = await openPage(browser);
    await useSession(page, session, '/email');
    await page.getByText('Invoice INV-000002 with ticket').waitFor();
    await page.getByText('Invoice INV-000001', { exact: true }).waitFor();
    await shot(page, 'e2e-email-history-desktop');
    await page.getByText('Invoice INV-000001', { exact: true }).click();
    await page.getByRole('button', { name: /Lone-Star-INV-000001-2026-03-02\.pdf/ }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /Lone-Star-INV-000001-2026-03-02\.pdf/ }).click();
    assert.equal((await download).suggestedFilename(), 'Lone-Star-INV-000001-2026-03-02.pdf');
    await shot(page, 'e2e-email-detail-desktop');
    assert.deepEqual(errors, [], errors.join('\n'));
    await context.close();
    const phone = await openPage(browser, { viewport: PHONE });
    await useSession(phone.page, session, '/email');
    await phone.page.getByText('Invoice INV-000002 with ticket').waitFor();
    await shot(phone.page, 'e2e-email-history-phone');
    await phone.context.close();
  });
});
