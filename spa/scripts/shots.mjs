// Exploratory screenshots of every screen (desktop and phone) into spa/artifacts/.
import { DEMO, DESKTOP, PHONE, launch, openPage, shot, signIn } from '../e2e/lib.mjs';

const browser = await launch();
for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  const { page, errors, context } = await openPage(browser, { viewport });
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  await shot(page, `${label}-signin`);
  await page.goto('/signup');
  await page.getByRole('button', { name: 'Create company' }).waitFor();
  await shot(page, `${label}-signup`);
  await signIn(page, DEMO.admin);
  await page.waitForURL('**/dashboard');
  await page.waitForTimeout(800);
  await shot(page, `${label}-dashboard`);
  if (label === 'desktop') {
    await page.getByTestId('rail-group-sales').hover();
    await page.waitForTimeout(300);
    await shot(page, `${label}-popup-sales`);
    await page.getByTestId('rail-group-operations').hover();
    await page.waitForTimeout(300);
    await shot(page, `${label}-popup-ops`);
  } else {
    await page.getByTestId('bar-group-sales').click();
    await page.waitForTimeout(300);
    await shot(page, `${label}-sheet-sales`);
    await page.getByRole('button', { name: 'Close menu' }).click();
  }
  for (const path of ['/company-settings', '/user-management', '/role-management', '/customer', '/about-us', '/nope']) {
    await page.goto(path);
    await page.waitForTimeout(1200);
    await shot(page, `${label}${path.replace(/\//g, '-')}`);
  }
  console.log(label, 'console errors:', errors);
  await context.close();
}
const { page, context } = await openPage(browser, { viewport: DESKTOP });
await signIn(page, DEMO.driver);
await page.waitForTimeout(1500);
await shot(page, 'desktop-driver');
await page.getByRole('button', { name: 'Change Trucks' }).click();
await page.waitForTimeout(800);
await shot(page, 'desktop-driver-trucks');
await context.close();
await browser.close();
