// Full-page screenshots of the keep-full forecast screens at desktop and phone width (issue 26):
//   E2E_BASE_URL=http://127.0.0.1:$PORT node scripts/forecast-shots.mjs [assetId]
// PNGs in spa/artifacts/forecast-full-*.png. The tank is the first of the due list unless given.
import { ARTIFACTS, DEMO, DESKTOP, PHONE, apiCaller, apiLogin, launch, openPage, settleAnimations, useSession } from '../e2e/lib.mjs';

const admin = await apiLogin(DEMO.admin);
const api = apiCaller(admin);
const due = await api('/forecast/due?within_days=14');
const assetId = process.argv[2] ?? due.body.data.rows[0]?.asset_id;
const browser = await launch();
const paths = [['due', '/forecast'], ['tank', `/forecast/tank/${assetId}`], ['readings', '/forecast/readings'], ['weather', '/forecast/weather']];
// The shell scrolls inside its own box, so a tall window shows the whole page.
for (const [vp, viewport] of [['desktop', { ...DESKTOP, height: 1900 }], ['phone', { ...PHONE, height: 2600 }]]) {
  const { page, errors } = await openPage(browser, { viewport });
  page.on('close', () => console.log(errors));
  await useSession(page, admin, '/forecast');
  for (const [name, path] of paths) {
    await page.goto(path);
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 20_000 }).catch(async (e) => { console.log(path, errors, await page.content().then((c) => c.slice(0, 600))); throw e; });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    await settleAnimations(page);
    await page.screenshot({ path: `${ARTIFACTS}forecast-full-${name}-${vp}.png` });
  }
}
await browser.close();
