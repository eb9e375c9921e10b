import { describe, expect, it, vi, afterEach } from 'vitest';
import { makeStore } from '@/testing/store';
import { jwtExpiringIn } from '@/testing/jwt';
import { fetchCompanySettings, isSettingsValidationText, pickProfile, pickSettings } from './sessionSlice';

describe('company settings and profile reading (spec sections 5 and 7)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("recognises the 'validation error' texts", () => {
    expect(isSettingsValidationText('1 validation error for CompanySettings')).toBe(true);
    expect(isSettingsValidationText('company_name: none is not an allowed value')).toBe(true);
    expect(isSettingsValidationText('Not found')).toBe(false);
  });

  it('reads settings from message.data or top-level data', () => {
    expect(pickSettings({ message: { data: { id: 1 } } })).toEqual({ id: 1 });
    expect(pickSettings({ message: { message: { data: { id: 2 } } } })).toEqual({ id: 2 });
    expect(pickSettings({ message: { data: null } })).toBeNull();
  });

  it('reads the profile from data, message.data or the whole response', () => {
    expect(pickProfile({ message: { data: { id: 1 } } })).toEqual({ id: 1 });
    expect(pickProfile({ message: { message: { data: { id: 2 } } } })).toEqual({ id: 2 });
    expect(pickProfile({ message: { id: 3, name: 'x' } })).toEqual({ id: 3, name: 'x' });
  });

  it('falls back to placeholder settings on a validation-error answer', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(600));
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ detail: '1 validation error: none is not an allowed value' }), { status: 422 })));
    const { store } = makeStore();
    await store.dispatch(fetchCompanySettings());
    expect(store.getState().session).toMatchObject({ settingsStatus: 'fulfilled', settings: null, settingsArePlaceholder: true });
  });

  it("rejects with the server's sentence otherwise", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 500, statusText: 'Server Error' })));
    const { store } = makeStore();
    await store.dispatch(fetchCompanySettings());
    expect(store.getState().session.settingsStatus).toBe('rejected');
  });
});
