import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jwtExpiringIn } from '@/testing/jwt';
import { baseQuery } from './baseQuery';
import { registerSessionHandlers, resetSessionHandlers } from './session';
import { resetUnauthorizedState } from './unauthorized';

const api = { signal: new AbortController().signal } as never;
const h = { notifyError: vi.fn(), clearClientState: vi.fn(), removeToken: vi.fn(), redirect: vi.fn(), logout: vi.fn() };

function answer(status: number, body: unknown) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('base query', () => {
  beforeEach(() => {
    Object.values(h).forEach((f) => f.mockReset());
    registerSessionHandlers(h);
  });
  afterEach(() => {
    resetUnauthorizedState();
    resetSessionHandlers();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('sends the bearer token and JSON, and returns the envelope', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(600));
    const fetch = answer(200, { status_code: 200, message: 'ok', data: { id: 1 } });
    const r = await baseQuery({ url: '/user-account/', method: 'POST', body: { a: 1 } }, api, {});
    expect(r).toEqual({ data: { status_code: 200, message: 'ok', data: { id: 1 } } });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/user-account');
    const headers = init.headers as Headers;
    expect(headers.get('Authorization')).toMatch(/^Bearer /);
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init.body).toBe('{"a":1}');
  });

  it('sends no authorization without a token', async () => {
    const fetch = answer(200, { data: [] });
    await baseQuery('/state/states/all', api, {});
    expect(((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].headers as Headers).has('Authorization')).toBe(false);
  });

  it('logs out instead of calling with an expired token', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(-10));
    const fetch = answer(200, {});
    const r = await baseQuery('/profile', api, {});
    expect(fetch).not.toHaveBeenCalled();
    expect(h.logout).toHaveBeenCalled();
    expect(r.error).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('a 401 starts the unauthorized handling of its area', async () => {
    vi.useFakeTimers();
    window.localStorage.setItem('token', jwtExpiringIn(600));
    answer(401, { detail: 'Your session has ended. Please sign in again.' });
    const r = await baseQuery('/role', api, {});
    expect(r.error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(h.notifyError).toHaveBeenCalledWith('Your session has ended. Please sign in again.');
    vi.advanceTimersByTime(2000);
    expect(h.redirect).toHaveBeenCalledWith('/');
  });

  it('a 403 (a permission the user lacks) keeps the session', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(600));
    answer(403, { detail: 'You do not have permission to do this.' });
    const r = await baseQuery('/customer/customers', api, {});
    expect(r.error).toMatchObject({ status: 403, code: 'UNAUTHORIZED', message: 'You do not have permission to do this.' });
    expect(h.clearClientState).not.toHaveBeenCalled();
  });

  it("the login call's 401 is an answer to show", async () => {
    answer(401, { detail: 'Invalid email or password.' });
    const r = await baseQuery({ url: '/login', method: 'POST', body: {} }, api, {});
    expect(r.error).toMatchObject({ message: 'Invalid email or password.' });
    expect(h.notifyError).not.toHaveBeenCalled();
  });
});
