import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import SignInPage from './SignInPage';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const session = {
  access_token: 'tok-1', token_type: 'bearer', expires_in: 3600,
  user: { id: 1, username: 'ann', name: 'Ann Admin', email: 'ann@fuel.test', role: { id: 1, name: 'Admin' }, driver: null, tenant: { name: 'Fuel', schema_name: 't_fuel' }, permissions: [] },
};

function stub(answer: () => Response) {
  const posts: { url: string; body: string }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input instanceof Request ? input : null;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? req?.method ?? 'GET').toUpperCase();
    if (method === 'POST') posts.push({ url, body: req ? await req.clone().text() : typeof init?.body === 'string' ? init.body : '' });
    return url.includes('/api/login/google') ? answer() : json({ detail: 'Not found' }, 404);
  });
  return { fetch, posts };
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('Sign in with Google', () => {
  it('offers the button', () => {
    renderWithProviders(<SignInPage />, { route: '/login' });
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeEnabled();
  });

  it('posts the code and state Google sent back, once, and keeps the session', async () => {
    const { fetch, posts } = stub(() => json({ status_code: 200, message: 'Login successful', data: session }));
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<SignInPage />, { route: '/login?code=c-9&state=s-9' });
    await waitFor(() => expect(window.localStorage.getItem('token')).toBe('tok-1'));
    expect(posts).toHaveLength(1);
    expect(posts[0].url).toContain('/api/login/google');
    expect(JSON.parse(posts[0].body)).toEqual({ code: 'c-9', state: 's-9' });
  });

  it("shows the server's refusal", async () => {
    const detail = "No FuelDesk user has this account's email address: sign in with your password, or ask your administrator to add you.";
    const { fetch } = stub(() => json({ detail }, 401));
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<SignInPage />, { route: '/login?code=c-1&state=s-1' });
    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
    expect(window.localStorage.getItem('token')).toBeNull();
  });
});
