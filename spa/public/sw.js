/* FuelDesk service worker (hand-written; docs/driver.md). Caches the app shell and the built assets
 * so the driver portal opens without a connection. API calls are never handled here: the app keeps
 * its own offline copy of today's orders and its queue in IndexedDB. */
const VERSION = 'v1';
const SHELL_CACHE = `fueldesk-shell-${VERSION}`;
const ASSET_CACHE = `fueldesk-assets-${VERSION}`;
const SHELL_KEY = '/__app-shell';
const STATIC = ['/manifest.webmanifest', '/favicon.svg', '/icons/icon-192.png', '/icons/icon-512.png'];

async function cacheShell() {
  const cache = await caches.open(SHELL_CACHE);
  const res = await fetch('/', { cache: 'reload', credentials: 'same-origin' });
  if (res.ok) await cache.put(SHELL_KEY, res);
  const assets = await caches.open(ASSET_CACHE);
  await Promise.all(STATIC.map((u) => assets.add(u).catch(() => undefined)));
}

self.addEventListener('install', (event) => {
  event.waitUntil(cacheShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([SHELL_CACHE, ASSET_CACHE]);
      for (const key of await caches.keys()) if (key.startsWith('fueldesk-') && !keep.has(key)) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  const data = event.data || {};
  if (data.type !== 'CACHE_URLS' || !Array.isArray(data.urls)) return;
  const reply = () => event.ports && event.ports[0] && event.ports[0].postMessage({ ok: true });
  event.waitUntil(
    caches
      .open(ASSET_CACHE)
      .then((cache) =>
        Promise.all(
          data.urls
            .filter((u) => {
              const url = new URL(u, self.location.origin);
              return url.origin === self.location.origin && !url.pathname.startsWith('/api/');
            })
            .map((u) => cache.match(u).then((hit) => hit || cache.add(u).catch(() => undefined))),
        ),
      )
      .then(reply, reply),
  );
});

function isAsset(url) {
  return url.pathname.startsWith('/assets/') || STATIC.includes(url.pathname);
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;

  if (req.mode === 'navigate') {
    // Network first (a new build is picked up at once); the cached shell when offline.
    event.respondWith(
      fetch(req)
        .then((res) => {
          if (res.ok && (res.headers.get('content-type') || '').includes('text/html')) {
            const copy = res.clone();
            caches.open(SHELL_CACHE).then((c) => c.put(SHELL_KEY, copy));
          }
          return res;
        })
        .catch(async () => (await caches.match(SHELL_KEY)) || Response.error()),
    );
    return;
  }

  if (isAsset(url)) {
    // Hashed, immutable files: the cache first, else the network (and keep a copy).
    event.respondWith(
      caches.match(req).then(
        (hit) =>
          hit ||
          fetch(req).then((res) => {
            if (res.ok) {
              const copy = res.clone();
              caches.open(ASSET_CACHE).then((c) => c.put(req, copy));
            }
            return res;
          }),
      ),
    );
  }
});
