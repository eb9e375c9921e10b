import { useEffect, useState } from 'react';
import { buildHeaders } from '@/lib/api/http';
import { rewriteToHttps } from '@/lib/api/url';

/**
 * Files under /api/storage/files/... need the bearer token, so an <img src> cannot load them:
 * fetch the file as a blob and show an object URL (revoked when the URL changes or on unmount).
 */
export function useAuthedObjectUrl(url: string | null | undefined): string | null {
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!url) {
      setObjectUrl(null);
      return;
    }
    if (url.startsWith('blob:') || url.startsWith('data:')) {
      setObjectUrl(url);
      return;
    }
    let revoked = false;
    let created: string | null = null;
    const controller = new AbortController();
    globalThis
      .fetch(rewriteToHttps(url), { headers: buildHeaders(undefined, { Accept: 'image/*' }), signal: controller.signal })
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(`status ${r.status}`))))
      .then((blob) => {
        if (revoked) return;
        created = URL.createObjectURL(blob);
        setObjectUrl(created);
      })
      .catch(() => {
        if (!revoked) setObjectUrl(null);
      });
    return () => {
      revoked = true;
      controller.abort();
      if (created) URL.revokeObjectURL(created);
    };
  }, [url]);
  return objectUrl;
}
