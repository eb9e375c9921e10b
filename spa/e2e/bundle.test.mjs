// The sign-in route's initial JavaScript stays within 200 KB gzip (read from the built dist/).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const spa = fileURLToPath(new URL('..', import.meta.url));

test('sign-in route initial JS ≤ 200 KB gzip', { skip: !existsSync(`${spa}dist/.vite/manifest.json`) && 'spa/dist is not built' }, () => {
  const r = spawnSync(process.execPath, ['scripts/bundle-report.mjs', '--max-kb', '200'], { cwd: spa, encoding: 'utf8' });
  const summary = r.stdout.split('\n').find((l) => l.startsWith('Sign-in route initial JS'));
  console.log(`[e2e] ${summary}`);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
