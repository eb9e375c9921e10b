import { useEffect, useState } from 'react';
import { buildHeaders } from '@/lib/api/http';

/** Where the bearer token may be sent: this origin's own file API, nothing else. */
const FILES_PATH = '/api/storage/files/';

/**
 * The same-origin path of one of the API's stored files, or null for anything else (another host,
 * `javascript:`, a path outside /api/storage/files/, `.`/`..` segments). The token only goes there.
 */
export function sameOriginFileUrl(url: string, origin: string = globalThis.location.origin): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url, origin);
  } catch {
    return null;
  }
  if (parsed.origin !== origin || parsed.username || parsed.password) return null;
  if (!parsed.pathname.startsWith(FILES_PATH)) return null;
  // A path the browser normalised (a `..` or `.` segment, plain or encoded) would leave the files API.
  if (/(^|\/)\.\.?(\/|$)|%2e/i.test(url.split(/[?#]/)[0])) return null;
  return parsed.pathname + parsed.search;
}

/**
 * Files under /api/storage/files/... need the bearer token, so an <img src> cannot load them:
 * fetch the file as a blob and show an object URL (revoked when the URL changes or on unmount).
 * A local preview (blob:) is shown as it is; any URL that is not one of this origin's stored files
 * gives null and is never fetched.
 */
export function useAuthedObjectUrl(url: string | null | undefined): string | null {
  const [loaded, setLoaded] = useState<{ src: string; objectUrl: string } | null>(null);
  const direct = !!url && url.startsWith('blob:');
  const safe = url && !direct ? sameOriginFileUrl(url) : null;
  useEffect(() => {
    if (!url || !safe) return;
    let revoked = false;
    let created: string | null = null;
    const controller = new AbortController();
    globalThis
      .fetch(safe, { headers: buildHeaders(undefined, { Accept: 'image/*' }), signal: controller.signal })
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(`status ${r.status}`))))
      .then((blob) => {
        if (revoked) return;
        created = URL.createObjectURL(blob);
        setLoaded({ src: url, objectUrl: created });
      })
      .catch(() => {
        if (!revoked) setLoaded(null);
      });
    return () => {
      revoked = true;
      controller.abort();
      if (created) URL.revokeObjectURL(created);
    };
  }, [url, safe]);
  if (!url) return null;
  if (direct) return url;
  if (!safe) return null;
  // Only the blob of this very URL: an earlier one is revoked when the URL changes.
  return loaded?.src === url ? loaded.objectUrl : null;
}
