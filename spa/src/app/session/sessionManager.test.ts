import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '@/app/store';
import { jwtExpiringIn } from '@/testing/jwt';
import { USER_LOGGED_IN_EVENT, cancelExpiryWatch, setNavigator, startSession, watchTokenExpiry } from './sessionManager';

function mockFetch() {
  const calls: string[] = [];
  const fn = vi.fn(async (url: string) => {
    calls.push(url);
    if (url.includes('/profile')) {
      return new Response(JSON.stringify({ status_code: 200, message: 'ok', data: { id: 1, username: 'ann', name: 'Ann', email: 'a@x.test', role: { id: 2, name: 'Driver' }, driver: null, tenant: { name: 'Co', schema_name: 't' }, permissions: [] } }), { status: 200 });
    }
    if (url.includes('/company-settings')) return new Response(JSON.stringify({ status_code: 200, message: 'none', data: null }), { status: 200 });
    return new Response(JSON.stringify({ status_code: 200, message: 'ok', data: null }), { status: 200 });
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

describe('session rules (spec section 4)', () => {
  let stop: (() => void) | null = null;
  const navigate = vi.fn();
  beforeEach(() => {
    navigate.mockReset();
    setNavigator(navigate);
  });
  afterEach(() => {
    stop?.();
    stop = null;
    cancelExpiryWatch();
    setNavigator(null);
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('fetches settings and profile once on startup when a token exists', async () => {
    const calls = mockFetch();
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    const app = makeStore();
    stop = startSession(app.store, app.persistor);
    await vi.waitFor(() => expect(app.store.getState().session.profileStatus).toBe('fulfilled'));
    expect(calls.filter((c) => c.includes('/profile'))).toHaveLength(1);
    expect(calls.filter((c) => c.includes('/company-settings'))).toHaveLength(1);
    expect(window.localStorage.getItem('user_role')).toBe('Driver');
    // The same login announced again does not fetch again.
    window.dispatchEvent(new Event(USER_LOGGED_IN_EVENT));
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.filter((c) => c.includes('/profile'))).toHaveLength(1);
  });

  it("fetches after a 'userLoggedIn' event and after a storage event", async () => {
    const calls = mockFetch();
    const app = makeStore();
    stop = startSession(app.store, app.persistor);
    expect(calls).toHaveLength(0);
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    window.dispatchEvent(new Event(USER_LOGGED_IN_EVENT));
    await vi.waitFor(() => expect(calls.filter((c) => c.includes('/profile'))).toHaveLength(1));
    // Another tab signs in with a new token.
    window.localStorage.setItem('token', jwtExpiringIn(7200));
    window.dispatchEvent(new StorageEvent('storage', { key: 'token', newValue: 'x' }));
    await vi.waitFor(() => expect(calls.filter((c) => c.includes('/profile'))).toHaveLength(2));
  });

  it('logs out when the token expires (exp in seconds)', async () => {
    mockFetch();
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    window.localStorage.setItem('token', jwtExpiringIn(30));
    window.localStorage.setItem('user_role', 'Admin');
    watchTokenExpiry();
    await vi.advanceTimersByTimeAsync(29_000);
    expect(window.localStorage.getItem('token')).not.toBeNull();
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.advanceTimersByTimeAsync(50);
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('user_role')).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/', { replace: true });
  });

  it('logs out at once when the token cannot be decoded', async () => {
    mockFetch();
    window.localStorage.setItem('token', 'garbage');
    watchTokenExpiry();
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('/', { replace: true }));
    expect(window.localStorage.getItem('token')).toBeNull();
  });
});
