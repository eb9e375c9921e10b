// Makes sure a FuelDesk server answers at BASE_URL. When none does (and E2E_START_SERVER is not
// '0'), starts the whole stack with the project's own runner (infra/run.py: bootstrap, demo seed,
// SPA build, gunicorn) and stops it afterwards.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BASE_URL, serverUp } from './lib.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export async function ensureServer({ timeoutMs = 420_000 } = {}) {
  if (await serverUp()) return { stop: async () => {} };
  if (process.env.E2E_START_SERVER === '0') throw new Error(`No server answers at ${BASE_URL} (E2E_START_SERVER=0)`);
  const url = new URL(BASE_URL);
  const python = existsSync(`${ROOT}.venv/bin/python`) ? `${ROOT}.venv/bin/python` : 'python3';
  const port = url.port || '8000';
  console.log(`[e2e] starting the server: infra/run.py --port ${port} --no-worker`);
  const child = spawn(python, ['infra/run.py', '--port', port, '--no-worker'], {
    cwd: ROOT,
    env: { ...process.env, PORT: port },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited) throw new Error('the server runner exited before answering');
    if (await serverUp()) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  if (!(await serverUp())) throw new Error(`the server did not answer at ${BASE_URL} within ${timeoutMs / 1000} s`);
  return {
    stop: async () => {
      if (exited) return;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      for (let i = 0; i < 30 && !exited; i++) await new Promise((r) => setTimeout(r, 1000));
    },
  };
}
