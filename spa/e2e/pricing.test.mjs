// Pricing end to end (issue 8): a tax with a rate, a fee and a supplier's rack sheet entered through
// the screens, a rule, then the price check explains what a customer pays; desktop and phone shots.
//   E2E_BASE_URL (default http://127.0.0.1:8000); the server is started when none answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureServer } from './server.mjs';
import { DEMO, DESKTOP, PHONE, apiCaller, apiLogin, launch, openPage, shot, unique, useSession } from './lib.mjs';

let server;
let browser;
let admin;
const api = apiCaller(() => admin);

before(async () => {
  server = await ensureServer();
  browser = await launch();
  admin = await apiLogin(DEMO.admin);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function pick(page, label, text) {
  const box = page.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(text);
  await page.getByRole('option', { name: new RegExp(text, 'i') }).first().click();
}

async function selectMui(page, label, text) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: new RegExp(text, 'i') }).first().click();
}

describe('FuelDesk pricing', { concurrency: false }, () => {
  test('tax with a rate, fee, rack sheet, rule: the price check explains the price', async () => {
    let { page } = await openPage(browser, { viewport: DESKTOP, allow: ['404', '409', '422', 'status of 4'] });
    const code = unique('E2E').slice(0, 20).toUpperCase();
    const day = new Date().toLocaleDateString('en-CA');

    // A tax, through the form, then its rate through the rates dialog.
    await useSession(page, admin, '/tax');
    await page.getByRole('heading', { level: 1, name: 'Taxes' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: /New tax/i }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill(`Kerosene excise ${code}`);
    await dialog.getByLabel('Code').fill(code);
    await selectMui(page, 'Kind', 'Per gallon');
    await dialog.getByLabel('All states').check();
    await dialog.getByLabel('All products').check();
    await dialog.getByRole('button', { name: /Save|Create/ }).click();
    await page.getByText(`Kerosene excise ${code}`).first().click();
    const rates = page.getByRole('dialog', { name: /Rates of/ });
    await rates.getByLabel(/Rate/).first().fill('0.0123');
    await rates.getByRole('button', { name: 'Add rate' }).click();
    await rates.getByRole('cell', { name: '$0.0123 / unit' }).waitFor();
    await shot(page, 'pricing-tax-rates-desktop');
    await rates.getByRole('button', { name: 'Close' }).click();

    // A fee.
    await page.goto('/fee');
    await page.getByRole('heading', { level: 1, name: 'Fees' }).waitFor();
    await page.getByRole('button', { name: /New fee/i }).click();
    await page.getByRole('dialog').getByLabel('Name').fill(`Pump-off ${code}`);
    await page.getByRole('dialog').getByLabel('Rate', { exact: false }).first().fill('35');
    await page.getByRole('dialog').getByRole('button', { name: /Save|Create/ }).click();
    await page.getByText(`Pump-off ${code}`).first().waitFor();

    // A rack sheet for Gulf Coast Fuels Supply: kerosene at Galena Park.
    await page.goto('/buying-price');
    await page.getByRole('heading', { level: 1, name: 'Supplier Buying Prices' }).waitFor();
    await page.getByRole('tab', { name: 'Enter rack sheet' }).click();
    await selectMui(page, 'Supplier', 'Gulf Coast Fuels');
    await page.getByLabel('Kerosene 1-K at Galena Park Terminal').fill('2.6111');
    await page.getByRole('button', { name: /Save 1 price/ }).click();
    await page.getByText(/Rack sheet saved/).waitFor();
    await page.getByRole('tab', { name: "Today's rack" }).click();
    await page.getByTestId('rack-board').waitFor();
    await page.getByTestId('rack-board').getByText('2.6111').first().click();
    await page.getByTestId('rack-history').locator('svg').first().waitFor();
    await page.waitForTimeout(600);
    await shot(page, 'pricing-rack-board-desktop');

    // A rule, through the form: kerosene at the named supplier's Galena Park rack + 25c + 5c freight.
    await page.goto('/pricing-rule');
    await page.getByRole('heading', { level: 1, name: 'Pricing Rules' }).waitFor();
    await page.getByRole('button', { name: /New pricing rule/i }).click();
    const ruleForm = page.getByRole('dialog');
    await ruleForm.getByRole('textbox', { name: 'Name' }).fill(`Kerosene ${code}`);
    await ruleForm.getByRole('spinbutton', { name: 'Priority' }).fill(String(100 + (Date.now() % 900)));
    const choose = async (label, text) => {
      await ruleForm.getByRole('combobox', { name: label, exact: true }).click();
      await page.getByRole('option', { name: new RegExp(text, 'i') }).first().click();
    };
    await choose('Product', 'Kerosene 1-K');
    await choose('Basis', '^Rack$');
    await choose('Rack of', 'a named supplier');
    await choose('Terminal', 'Galena Park');
    await choose('Supplier', 'Gulf Coast Fuels');
    await ruleForm.getByRole('spinbutton', { name: 'Margin amount' }).fill('0.25');
    await ruleForm.getByRole('spinbutton', { name: 'Freight ($/unit)' }).fill('0.05');
    await shot(page, 'pricing-rule-form-desktop');
    await ruleForm.getByRole('button', { name: /Save|Create/ }).click();
    await page.getByText('Pricing rule created successfully').waitFor();
    await page.getByRole('row').filter({ hasText: `Kerosene ${code}` }).waitFor();

    // The price check: 3,000 gallons of kerosene for a customer at a ship-to, today.
    const customer = (await api('/customer/customers?search=Bayou%20City')).body.data.items[0];
    await page.goto('/pricing-rule/price-check');
    await page.getByRole('heading', { level: 1, name: 'Price Check' }).waitFor();
    await pick(page, 'Customer', customer.name);
    await pick(page, 'Product', 'Kerosene');
    await page.getByLabel('Pricing date').fill(day);
    await page.getByRole('button', { name: 'Check price' }).click();
    await page.getByTestId('price-check-result').waitFor({ timeout: 20_000 });
    // 2.6111 + 0.25 + 0.05
    assert.equal(await page.getByTestId('pc-unit-price').textContent(), '$2.9111');
    const explanation = await page.getByTestId('pc-explanation').textContent();
    assert.match(explanation, new RegExp(`Rule 'Kerosene ${code}'`));
    assert.match(explanation, /Gulf Coast Fuels Supply at Galena Park Terminal/);
    assert.match(explanation, /3000 x 2\.9111 = 8733\.30/);
    assert.match(explanation, new RegExp(`Kerosene excise ${code}: 0\\.012300 per unit x 3000 = 36\\.90`));
    await shot(page, 'pricing-price-check-desktop');

    await page.close();

    // The same check on a phone.
    ({ page } = await openPage(browser, { viewport: PHONE, allow: ['404', '409', '422', 'status of 4'] }));
    await useSession(page, admin, '/pricing-rule/price-check');
    await page.getByRole('heading', { level: 1, name: 'Price Check' }).waitFor({ timeout: 20_000 });
    await pick(page, 'Customer', customer.name);
    await pick(page, 'Product', 'Kerosene');
    await page.getByLabel('Pricing date').fill(day);
    await page.getByRole('button', { name: 'Check price' }).click();
    await page.getByTestId('price-check-result').waitFor({ timeout: 20_000 });
    assert.equal(await page.getByTestId('pc-unit-price').textContent(), '$2.9111');
    await shot(page, 'pricing-price-check-phone');
    await page.goto('/buying-price');
    await page.getByTestId('rack-board').waitFor({ timeout: 20_000 });
    await shot(page, 'pricing-rack-board-phone');
    await page.goto('/tax');
    await page.getByRole('heading', { level: 1, name: 'Taxes' }).waitFor();
    await page.waitForTimeout(500);
    await shot(page, 'pricing-taxes-phone');
    await page.goto(`/customer/${customer.id}`);
    await page.getByTestId('customer-pricing').waitFor({ timeout: 20_000 });
    await page.getByTestId('customer-pricing').scrollIntoViewIfNeeded();
    await shot(page, 'pricing-customer-phone');
    await page.close();
  });
});
