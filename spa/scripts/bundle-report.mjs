#!/usr/bin/env node
// Prints the bundle table from dist/.vite/manifest.json: every chunk's raw and gzip size, and the
// initial JavaScript of the sign-in route (the entry's static imports plus the sign-in page's).
//   npm run build && npm run bundle:report [-- --markdown] [-- --max-kb 200]
// Another route: --route <source suffixes, comma-separated> [--label name], e.g. the driver portal
//   node scripts/bundle-report.mjs --route app/ShellContainer.tsx,features/driver/TodaysOrdersPage.tsx --label /todays-order --max-kb 250
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifest = JSON.parse(readFileSync(`${dist}.vite/manifest.json`, 'utf8'));
const markdown = process.argv.includes('--markdown');
const maxIdx = process.argv.indexOf('--max-kb');
const maxKb = maxIdx > -1 ? Number(process.argv[maxIdx + 1]) : 200;

const sizes = new Map();
function size(file) {
  if (!sizes.has(file)) {
    const buf = readFileSync(dist + file);
    sizes.set(file, { raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length });
  }
  return sizes.get(file);
}

function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(dep, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const routeIdx = process.argv.indexOf('--route');
const labelIdx = process.argv.indexOf('--label');
const routeFiles = routeIdx > -1 ? process.argv[routeIdx + 1].split(',') : ['features/auth/SignInPage.tsx'];
const label = labelIdx > -1 ? process.argv[labelIdx + 1] : 'Sign-in';
let initial = closure(entryKey);
for (const suffix of routeFiles) {
  const key = Object.keys(manifest).find((k) => k.endsWith(suffix));
  if (!key) throw new Error(`no chunk for ${suffix}`);
  initial = closure(key, initial);
}
const kb = (n) => (n / 1024).toFixed(1);

const rows = [...new Set(Object.values(manifest).map((c) => c.file))]
  .filter((f) => f.endsWith('.js'))
  .map((f) => ({ file: f, ...size(f), initial: initial.has(f) }))
  .sort((a, b) => b.gzip - a.gzip);
const total = [...initial].filter((f) => f.endsWith('.js')).reduce((s, f) => s + size(f).gzip, 0);

if (markdown) {
  console.log('| chunk | raw KB | gzip KB | in sign-in initial JS |');
  console.log('|---|---:|---:|:---:|');
  for (const r of rows) console.log(`| ${r.file.replace(/^assets\//, '')} | ${kb(r.raw)} | ${kb(r.gzip)} | ${r.initial ? 'yes' : ''} |`);
} else {
  for (const r of rows) console.log(`${r.initial ? '*' : ' '} ${r.file.padEnd(52)} ${kb(r.raw).padStart(8)} KB  ${kb(r.gzip).padStart(7)} KB gzip`);
}
console.log(`\n${label} route initial JS: ${kb(total)} KB gzip (budget ${maxKb} KB) in ${[...initial].length} files`);
if (total / 1024 > maxKb) {
  console.error('Over budget.');
  process.exit(1);
}
