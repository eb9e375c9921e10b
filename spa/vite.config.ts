/// <reference types="vitest/config" />
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { fileURLToPath, URL } from 'node:url';
import { defineConfig, type Connect, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// The Content-Security-Policy of the SPA's pages comes from the server (platform/core/csp.py).
// Vite marks its script/style/link tags and <meta property="csp-nonce"> with the placeholder; the
// server (Django in production and under `make run`, this plugin under `vite` and `vite preview`)
// replaces it with a fresh nonce per response and sends the policy naming it.
const CSP = JSON.parse(readFileSync(new URL('./csp.json', import.meta.url), 'utf8')) as {
  placeholder: string;
  headers: Record<string, string>;
};

function signHtml(_req: Connect.IncomingMessage, res: ServerResponse, next: Connect.NextFunction) {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    const type = String(res.getHeader('Content-Type') ?? '');
    if (type.includes('text/html') && chunk != null && !res.headersSent) {
      const nonce = randomBytes(16).toString('base64url');
      const html = (Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk)).replaceAll(CSP.placeholder, nonce);
      for (const [name, value] of Object.entries(CSP.headers)) res.setHeader(name, value.replaceAll(CSP.placeholder, nonce));
      res.setHeader('Content-Length', Buffer.byteLength(html));
      return end(html, ...rest);
    }
    return end(chunk, ...rest);
  }) as typeof res.end;
  next();
}

function contentSecurityPolicy(): Plugin {
  return {
    name: 'fueldesk-csp',
    configureServer(server) {
      server.middlewares.use(signHtml);
    },
    configurePreviewServer(server) {
      server.middlewares.use(signHtml);
    },
  };
}

// Django serves spa/dist at / (index.html fallback for every non-/api path) and the
// hashed bundles under /assets/. In development Vite proxies /api to the Django server.
export default defineConfig({
  plugins: [react(), contentSecurityPolicy()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  base: '/',
  html: { cspNonce: '__CSP_NONCE__' },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    manifest: true,
    chunkSizeWarningLimit: 900,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:8000', changeOrigin: false },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    testTimeout: 15000,
  },
});
