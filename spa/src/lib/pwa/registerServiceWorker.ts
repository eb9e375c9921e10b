/**
 * The offline app shell (docs/driver.md): registers the hand-written service worker `/sw.js`
 * (spa/public/sw.js) with workbox-window, then hands it the URLs this page already loaded (the
 * entry and the chunks fetched before the worker controlled the page) so they are cached too.
 * Only in production builds; a browser without service workers simply stays online-only.
 */
export async function registerServiceWorker(): Promise<boolean> {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return false;
  const { Workbox } = await import('workbox-window');
  const wb = new Workbox('/sw.js', { scope: '/' });
  await wb.register();
  const urls = performance
    .getEntriesByType('resource')
    .map((e) => e.name)
    .filter((u) => {
      try {
        const url = new URL(u);
        return url.origin === location.origin && !url.pathname.startsWith('/api/');
      } catch {
        return false;
      }
    });
  try {
    await wb.messageSW({ type: 'CACHE_URLS', urls: [...new Set(urls)] });
  } catch {
    /* the worker caches what it sees from now on anyway */
  }
  return true;
}
