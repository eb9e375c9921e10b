import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sameOriginFileUrl, useAuthedObjectUrl } from './useAuthedObjectUrl';

const ORIGIN = globalThis.location.origin;

describe('sameOriginFileUrl: the bearer token only goes to this origin\'s stored files', () => {
  it('keeps the API file paths the server builds', () => {
    expect(sameOriginFileUrl('/api/storage/files/tenants/t1/logo/abc/x.png')).toBe('/api/storage/files/tenants/t1/logo/abc/x.png');
    expect(sameOriginFileUrl(`${ORIGIN}/api/storage/files/tenants/t1/logo/abc/x.png`)).toBe('/api/storage/files/tenants/t1/logo/abc/x.png');
  });

  it.each([
    'javascript:alert(document.cookie)',
    'https://evil.example/api/storage/files/x.png',
    '//evil.example/api/storage/files/x.png',
    '/api/user-account',
    '/api/storage/files/../../user-account',
    '/api/storage/files/%2e%2e/%2e%2e/user-account',
    'data:image/svg+xml,<svg onload=alert(1)>',
    `http://user:pw@${new URL(ORIGIN).host}/api/storage/files/x.png`,
  ])('refuses %s', (url) => {
    expect(sameOriginFileUrl(url)).toBeNull();
  });
});

describe('useAuthedObjectUrl', () => {
  afterEach(() => vi.restoreAllMocks());

  it('never fetches a URL of another host or scheme', () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    for (const url of ['https://evil.example/x.png', 'javascript:alert(1)', '/api/role']) {
      const { result } = renderHook(() => useAuthedObjectUrl(url));
      expect(result.current).toBeNull();
    }
    expect(fetch).not.toHaveBeenCalled();
  });

  it('fetches a stored file of this origin with the token and shows it as a blob', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue({ ok: true, blob: () => Promise.resolve(new Blob(['png'])) } as unknown as Response);
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:shown');
    const { result } = renderHook(() => useAuthedObjectUrl('/api/storage/files/tenants/t1/logo/abc/x.png'));
    await waitFor(() => expect(result.current).toBe('blob:shown'));
    expect(fetch.mock.calls[0][0]).toBe('/api/storage/files/tenants/t1/logo/abc/x.png');
    expect(created).toHaveBeenCalledOnce();
  });
});
