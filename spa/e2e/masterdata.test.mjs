// Master-data screens end to end (issue 4): every page at desktop and phone width without console
// errors, and the full flows — a customer with a ship-to and a tank, a product with the spec's
// required-field messages, a driver with a sign-in who then sees the driver layout, and a CSV
// import of customers with one bad row.
//   E2E_BASE_URL (default http://127.0.0.1:8000); the server is started when none answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { BASE_URL, DEMO, DESKTOP, PHONE, apiLogin, axe, launch, openPage, shot, signIn, unique, useSession } from './lib.mjs';

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

/** GET on the API as the demo admin (to check what was, or was not, written). */
async function api(path) {
  const r = await fetch(`${BASE_URL}/api${path}`, { headers: { Authorization: `Bearer ${admin.access_token}` } });
  assert.equal(r.status, 200, `GET ${path}: ${r.status}`);
  return (await r.json()).data;
}

function assertNoConsoleErrors(errors, where) {
  assert.deepEqual(errors, [], `console errors on ${where}:\n${errors.join('\n')}`);
}

/** Waits until the page's list has answered (its count replaces 'Loading…'). */
async function listLoaded(page, scope = page) {
  await scope.getByText(/^\d+ [a-z-]+( [a-z]+)?$/i).first().waitFor({ timeout: 20_000 });
  await page.locator('.MuiDataGrid-overlay .MuiCircularProgress-root, .MuiDataGrid-overlay .MuiLinearProgress-root').first().waitFor({ state: 'detached', timeout: 20_000 }).catch(() => {});
}

const PAGES = [
  ['/customer', 'Customers'],
  ['/customer-company-type', 'Customer Company Types'],
  ['/customer-contact-book', 'Customer Contact Book'],
  ['/supplier', 'Suppliers'],
  ['/supplier/aliases', 'Supplier Product Aliases'],
  ['/terminal', 'Terminals'],
  ['/product', 'Products'],
  ['/product-category', 'Product Categories'],
  ['/product-sub-category', 'Product Sub-Categories'],
  ['/state', 'States'],
  ['/city', 'Cities'],
  ['/region', 'Regions'],
  ['/yard', 'Yards'],
  ['/company-asset', 'Company Assets'],
  ['/asset-type', 'Asset Types'],
  ['/driver', 'Drivers'],
  ['/payment-term', 'Payment Terms'],
  ['/payment-method', 'Payment Methods'],
];

describe('FuelDesk master data', { concurrency: false }, () => {
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ]) {
    test(`every master-data page opens at ${label} width without console errors`, async () => {
      const { page, errors, context } = await openPage(browser, { viewport });
      const customers = await api('/customer/customers?page=1&size=1&sort_by=name&order=asc');
      const first = customers.items[0];
      assert.ok(first, 'the demo has customers');
      await useSession(page, admin, '/dashboard');
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      for (const [path, title] of [...PAGES, [`/customer/${first.id}`, first.name]]) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: title }).waitFor({ timeout: 20_000 });
        await listLoaded(page);
        // A desktop grid has a header row and data rows; a phone shows a card per row (issue 23).
        const rows = await page.getByRole('row').count();
        const cards = await page.getByTestId('list-card').count();
        assert.ok(rows > 1 || cards > 0, `${path} lists rows of the demo data (found ${Math.max(rows - 1, 0) + cards})`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 1, `${path} at ${label} width scrolls sideways by ${overflow}px`);
        await shot(page, `e2e-${label}-md${path.replace(/[^a-z0-9]+/gi, '-')}`);
        if (label === 'desktop' && ['/customer', '/driver', `/customer/${first.id}`].includes(path)) {
          const violations = await axe(page);
          assert.deepEqual(violations, [], `serious/critical axe violations on ${path}:\n${JSON.stringify(violations, null, 2)}`);
        }
      }
      assertNoConsoleErrors(errors, `the master-data pages at ${label} width`);
      await context.close();
    });
  }

  test('a customer with a ship-to and a tank; a customer in use is deactivated instead of deleted', async () => {
    const { page, errors, context } = await openPage(browser);
    const name = unique('E2E Fuel Customer ');
    await useSession(page, admin, '/customer');
    await listLoaded(page);
    await page.getByRole('button', { name: 'New customer' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Customer name' }).fill(name);
    await dialog.getByRole('combobox', { name: 'Company type' }).click();
    await page.getByRole('option', { name: 'Agriculture' }).click();
    await dialog.getByRole('textbox', { name: 'Billing email' }).fill('ap@e2e-customer.example.com');
    await dialog.getByRole('textbox', { name: 'Address', exact: true }).fill('100 Main St');
    await dialog.getByRole('combobox', { name: 'State' }).click();
    await page.getByRole('option', { name: /^Texas/ }).click();
    await dialog.getByRole('combobox', { name: 'City' }).click();
    await page.getByRole('option', { name: 'Houston' }).click();
    await dialog.getByRole('combobox', { name: 'Payment term' }).click();
    await page.getByRole('option', { name: /^Net 30/ }).click();
    await dialog.getByRole('combobox', { name: 'Payment method' }).click();
    await page.getByRole('option', { name: 'ACH' }).click();
    await dialog.getByRole('spinbutton', { name: 'Credit limit ($)' }).fill('25000');
    await dialog.getByLabel('Tax exempt').check();
    // The certificate is required once the customer is tax exempt.
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Tax exemption certificate number is required').waitFor();
    await dialog.getByRole('textbox', { name: 'Tax exemption certificate number' }).fill('TX-EX-E2E-1');
    await shot(page, 'e2e-desktop-md-customer-form');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/customer\/\d+$/);
    const customerId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.getByTestId('customer-summary').getByText('Exempt · TX-EX-E2E-1').waitFor();

    // A ship-to with its delivery details.
    const shipTos = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Ship-tos' }) });
    await shipTos.getByRole('button', { name: 'New ship-to' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Ship-to name' }).fill('North Yard');
    await dialog.getByRole('textbox', { name: 'Address', exact: true }).fill('2500 Clinton Dr');
    await dialog.getByRole('textbox', { name: 'ZIP code' }).fill('77020');
    await dialog.getByRole('spinbutton', { name: 'Latitude' }).fill('29.7604');
    // Latitude and longitude go together.
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Enter the longitude too').waitFor();
    await dialog.getByRole('spinbutton', { name: 'Longitude' }).fill('-95.3698');
    await dialog.getByRole('textbox', { name: 'Delivery instructions' }).fill('Call the yard office on arrival.');
    await dialog.getByRole('textbox', { name: 'Access hours' }).fill('Mon–Fri 6:00–17:00');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Ship-to created successfully').waitFor();
    await shipTos.getByRole('row').filter({ hasText: 'North Yard' }).waitFor();

    // A tank at that ship-to, holding clear diesel.
    const tanks = page.locator('section').filter({ has: page.getByRole('heading', { name: /^Tanks/ }) });
    await tanks.getByRole('button', { name: 'New tank' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Tank name' }).fill('Tank 1');
    assert.match(await dialog.getByRole('combobox', { name: 'Ship-to' }).textContent(), /North Yard/);
    await dialog.getByRole('combobox', { name: 'Product it holds' }).fill('Clear Diesel');
    await page.getByRole('option', { name: /Clear Diesel ULSD #2/ }).click();
    await dialog.getByRole('spinbutton', { name: 'Capacity (gal)' }).fill('1000');
    await shot(page, 'e2e-desktop-md-tank-form');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Tank created successfully').waitFor();
    const tankRow = tanks.getByRole('row').filter({ hasText: 'Tank 1' });
    await tankRow.waitFor();
    assert.match(await tankRow.textContent(), /North Yard.*Clear Diesel ULSD #2.*1,000 gal/);
    await shot(page, 'e2e-desktop-md-customer-detail');

    const saved = await api(`/asset?customer_id=${customerId}`);
    assert.equal(saved.total, 1);
    assert.equal(saved.items[0].ship_to.name, 'North Yard');

    // Deleting a customer with ship-tos is refused with the server's sentence; deactivate instead.
    await page.goto('/customer');
    // Wait for the searched list itself: clicking a row of the unfiltered list while the debounced
    // search re-renders the grid can land on a row that is being replaced.
    const searched = page.waitForResponse(
      (r) => r.url().includes('/api/customer/customers') && r.url().includes('search=') && r.ok(),
    );
    await page.getByRole('searchbox', { name: /Search name/ }).fill(name);
    await searched;
    const row = page.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    await row.getByRole('button', { name: `Delete ${name}` }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByTestId('confirm-error').filter({ hasText: /cannot be deleted because it is used by 1 customer asset, 1 ship-to/ }).waitFor();
    await shot(page, 'e2e-desktop-md-customer-delete-409');
    await dialog.getByRole('button', { name: 'Set inactive instead' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByText('Inactive').waitFor();
    assert.equal((await api(`/customer/customers/${customerId}`)).status, 'inactive');
    // The refused DELETE is the only failed request.
    assertNoConsoleErrors(errors.filter((e) => !/409/.test(e)), 'the customer flow');
    await context.close();
  });

  test("a product: the spec's 'Missing required fields', then created", async () => {
    const { page, errors, context } = await openPage(browser);
    const code = unique('E2E-').toUpperCase();
    await useSession(page, admin, '/product');
    await listLoaded(page);
    await page.getByRole('button', { name: 'New product' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByRole('alert').filter({ hasText: /^Missing required fields$/ }).waitFor();
    await dialog.getByText('Code is required').waitFor();
    await shot(page, 'e2e-desktop-md-product-required');
    await dialog.getByRole('textbox', { name: 'Name' }).fill(`E2E Winter Diesel ${code}`);
    await dialog.getByRole('combobox', { name: 'Sold as' }).click();
    await page.getByRole('option', { name: 'Gallon' }).click();
    // Still one missing: the code.
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByRole('alert').filter({ hasText: /^Missing required fields$/ }).waitFor();
    await dialog.getByRole('textbox', { name: 'Code' }).fill(code);
    await dialog.getByRole('combobox', { name: 'Category', exact: true }).click();
    await page.getByRole('option', { name: 'Fuel' }).click();
    await dialog.getByRole('combobox', { name: 'Sub-category' }).click();
    await page.getByRole('option', { name: 'Diesel' }).click();
    await dialog.getByRole('spinbutton', { name: 'List price ($)' }).fill('3.4599');
    await dialog.getByLabel('Bulk fuel (metered)').check();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Product created successfully').waitFor();
    await page.getByRole('searchbox', { name: /Search by name/ }).fill(code);
    const row = page.getByRole('row').filter({ hasText: code });
    await row.waitFor();
    assert.match(await row.textContent(), /Fuel › Diesel.*gallon.*\$3\.4599/);
    const found = await api(`/product/products/?search=${encodeURIComponent(code)}`);
    assert.equal(found.total, 1);
    assert.equal(found.items[0].is_fuel, true);
    assertNoConsoleErrors(errors, 'the product flow');
    await context.close();
  });

  test('a driver with a sign-in signs in to the driver layout and sees the trucks', async () => {
    const { page, errors, context } = await openPage(browser);
    const email = `${unique('driver')}@e2e.fueldesk.test`;
    const password = 'Trucking2026go';
    const name = unique('E2E Driver ');
    await useSession(page, admin, '/driver');
    await listLoaded(page);
    await page.getByRole('button', { name: 'New driver' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Full name' }).fill(name);
    await dialog.getByRole('textbox', { name: 'Phone' }).fill('+1 713 555 0199');
    await dialog.getByRole('combobox', { name: 'CDL class' }).click();
    await page.getByRole('option', { name: 'Class A' }).click();
    await dialog.getByRole('combobox', { name: 'Home yard' }).click();
    await page.getByRole('option', { name: /Houston Yard/ }).click();
    await dialog.getByLabel('Create a sign-in for the driver portal').check();
    await dialog.getByRole('textbox', { name: 'Sign-in email' }).fill(email);
    await dialog.locator('input[name="login_password"]').fill('short1');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText(/The password needs at least 10 characters/).waitFor();
    await dialog.locator('input[name="login_password"]').fill(password);
    await shot(page, 'e2e-desktop-md-driver-form');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Driver created successfully').waitFor();
    const row = page.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    assert.match(await row.textContent(), new RegExp(email.replace(/[.]/g, '\\.')));
    assertNoConsoleErrors(errors, 'the driver form');
    await context.close();

    // The new driver signs in: the driver layout, and 'Change Trucks' lists the company's trucks.
    const driver = await openPage(browser);
    await signIn(driver.page, { email, password });
    await driver.page.getByText('Driver App').waitFor();
    await driver.page.getByText('Driver Portal').waitFor();
    assert.equal(await driver.page.getByTestId('rail').count(), 0);
    await driver.page.getByRole('button', { name: 'Change Trucks' }).click();
    const trucks = driver.page.getByRole('dialog', { name: 'Change Trucks' });
    const boxes = trucks.getByRole('checkbox');
    // The modal's list loads lazily: wait for the first truck, not for a spinner that may not be up yet.
    await boxes.first().waitFor({ timeout: 20_000 });
    assert.ok((await boxes.count()) >= 1, 'the demo trucks are listed');
    await trucks.getByText(/Kenworth T370 tank truck/).waitFor();
    await shot(driver.page, 'e2e-desktop-md-driver-trucks');
    await boxes.first().check();
    await trucks.getByRole('button', { name: 'Save' }).click();
    const stored = await driver.page.evaluate(() => JSON.parse(window.localStorage.getItem('selected_company_assets') || '[]'));
    assert.equal(stored.length, 1);
    assertNoConsoleErrors(driver.errors, 'the new driver’s layout');
    await driver.context.close();
  });

  test('CSV import of customers: a bad row is shown and nothing is written; fixed, all rows are imported', async () => {
    const { page, errors, context } = await openPage(browser);
    const u = unique('').toUpperCase();
    const header = 'name,account_number,status,company_type,state,city,credit_limit,email';
    const good = `E2E Import Alpha ${u},IA${u},active,Agriculture,TX,Houston,1000,ap@alpha.example.com`;
    const bad = `E2E Import Bravo ${u},IB${u},bogus,Construction,TX,Dallas,-5,ap@bravo.example.com`;
    const fixed = `E2E Import Bravo ${u},IB${u},on_hold,Construction,TX,Dallas,500,ap@bravo.example.com`;
    const file = (rows) => ({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from([header, ...rows].join('\n') + '\n') });

    await useSession(page, admin, '/customer');
    await listLoaded(page);
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import customers from CSV' });
    await dialog.getByTestId('csv-file-input').setInputFiles(file([good, bad]));
    const rowErrors = dialog.getByRole('table', { name: 'Rows with errors' });
    await rowErrors.waitFor();
    const problems = await rowErrors.getByRole('row').allTextContents();
    assert.ok(problems.some((t) => t.startsWith('3') && t.includes('status')), `row 3's status is reported: ${problems.join(' | ')}`);
    assert.ok(problems.some((t) => t.startsWith('3') && t.includes('credit_limit')), `row 3's credit limit is reported: ${problems.join(' | ')}`);
    await dialog.getByRole('status').filter({ hasText: /nothing has been imported/ }).waitFor();
    assert.equal(await dialog.getByRole('button', { name: /^Import \d+ customers?$/ }).isDisabled(), true);
    await shot(page, 'e2e-desktop-md-import-errors');
    // Nothing was written.
    assert.equal((await api(`/customer/customers?search=${u}`)).total, 0);

    await dialog.getByTestId('csv-file-input').setInputFiles(file([good, fixed]));
    const confirm = dialog.getByRole('button', { name: 'Import 2 customers' });
    await confirm.waitFor();
    await dialog.getByRole('table', { name: 'First rows to import' }).getByText(`E2E Import Bravo ${u}`).waitFor();
    assert.equal(await dialog.getByRole('table', { name: 'Rows with errors' }).count(), 0);
    await shot(page, 'e2e-desktop-md-import-ready');
    await confirm.click();
    await dialog.getByText('Imported 2 customers.').waitFor({ timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Close' }).click();
    const imported = await api(`/customer/customers?search=${u}&sort_by=name&order=asc`);
    assert.deepEqual(imported.items.map((c) => [c.name, c.status, c.company_type?.company_type, c.city?.name]), [
      [`E2E Import Alpha ${u}`, 'active', 'Agriculture', 'Houston'],
      [`E2E Import Bravo ${u}`, 'on_hold', 'Construction', 'Dallas'],
    ]);
    await page.getByRole('searchbox', { name: /Search name/ }).fill(u);
    await page.getByRole('row').filter({ hasText: `E2E Import Bravo ${u}` }).getByText('On hold').waitFor();
    assertNoConsoleErrors(errors, 'the CSV import');
    await context.close();
  });
});
