import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import GoogleAuthenticationPage from './GoogleAuthenticationPage';
import { callbackParams, type GoogleAuthentication } from './googleApi';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const ok = (data: unknown, message = 'ok') => json({ status_code: 200, message, data });
const account = (over: Partial<GoogleAuthentication> = {}): GoogleAuthentication => ({
  state: 'connected', email: 'office@fuel.test', connected_at: '2026-11-24T08:00:00Z', connected_by: 'Ann Admin',
  held: 0, last_error: '', configured: true, ...over,
});

type Call = { url: string; method: string; body: string };
function route(handlers: Record<string, () => Response>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input instanceof Request ? input : null;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? req?.method ?? 'GET').toUpperCase();
    const body = req ? await req.clone().text() : typeof init?.body === 'string' ? init.body : '';
    calls.push({ url, method, body });
    const key = Object.keys(handlers).find((k) => {
      const [m, path] = k.split(' ');
      return m === method && new URL(url, 'http://x').pathname === path;
    });
    return key ? handlers[key]() : json({ detail: 'Not found' }, 404);
  });
  return { fetch, calls };
}

afterEach(() => vi.unstubAllGlobals());

describe('Google Authentication screen', () => {
  it('reads what Google put in the query string', () => {
    expect(callbackParams('?code=c1&state=s1&scope=x')).toEqual({ code: 'c1', state: 's1' });
    expect(callbackParams('?error=access_denied&state=s1')).toEqual({ error: 'Google access was not granted.' });
    expect(callbackParams('?code=c1')).toBeNull();
    expect(callbackParams('')).toBeNull();
  });

  it('shows the connected account and offers Disconnect, not Connect', async () => {
    const { fetch } = route({ 'GET /api/google-authentication': () => ok(account()) });
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<GoogleAuthenticationPage />, { route: '/google-authentication' });
    expect(await screen.findByTestId('google-email')).toHaveTextContent('office@fuel.test');
    expect(screen.getByTestId('google-state')).toHaveTextContent('Connected');
    expect(screen.getByRole('button', { name: 'Disconnect' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Connect Google account|Reconnect/ })).toBeNull();
  });

  it('shows Reconnect with the reason and the held emails when Google refused the grant', async () => {
    const reason = 'Google account disconnected — reconnect at Google Authentication';
    const { fetch } = route({ 'GET /api/google-authentication': () => ok(account({ state: 'reconnect', held: 2, last_error: reason })) });
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<GoogleAuthenticationPage />, { route: '/google-authentication' });
    expect(await screen.findByTestId('google-reason')).toHaveTextContent(reason);
    expect(screen.getByTestId('google-held')).toHaveTextContent('2 emails are held until the account is reconnected.');
    expect(screen.getByRole('link', { name: 'See the email history' })).toHaveAttribute('href', '/email');
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeEnabled();
  });

  it('posts the code and state Google sent back, once, then shows the account', async () => {
    const { fetch, calls } = route({
      'POST /api/google-authentication/callback': () => ok(account(), 'Google account connected'),
      'GET /api/google-authentication': () => ok(account()),
    });
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<GoogleAuthenticationPage />, { route: '/google-authentication?code=c-1&state=s-1' });
    expect(await screen.findByTestId('google-email')).toHaveTextContent('office@fuel.test');
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(JSON.parse(posts[0].body)).toEqual({ code: 'c-1', state: 's-1' });
  });

  it('disables Connect when the server has no Google client', async () => {
    const { fetch } = route({ 'GET /api/google-authentication': () => ok(account({ state: 'disconnected', email: '', connected_at: null, configured: false })) });
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<GoogleAuthenticationPage />, { route: '/google-authentication' });
    expect(await screen.findByRole('button', { name: 'Connect Google account' })).toBeDisabled();
    expect(screen.getByText(/GOOGLE_CLIENT_ID/)).toBeInTheDocument();
  });

  it('asks before disconnecting', async () => {
    const { fetch, calls } = route({
      'GET /api/google-authentication': () => ok(account()),
      'POST /api/google-authentication/disconnect': () => ok(account({ state: 'disconnected' }), 'Google account disconnected'),
    });
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<GoogleAuthenticationPage />, { route: '/google-authentication' });
    fireEvent.click(await screen.findByRole('button', { name: 'Disconnect' }));
    expect(screen.getByText('Disconnect office@fuel.test?')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(screen.getAllByRole('button', { name: 'Disconnect' }).at(-1)!);
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/api/google-authentication/disconnect'))).toBe(true));
  });
});
