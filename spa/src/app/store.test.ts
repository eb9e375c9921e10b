import { describe, expect, it } from 'vitest';
import { customerContactSlice } from '@/features/customerContact/customerContactSlice';
import { loggedIn } from '@/lib/session/loginSlice';
import { settingsSaved } from '@/lib/session/sessionSlice';
import type { CompanySettings, Profile } from '@/lib/session/types';
import { PERSISTED_SLICES, PERSIST_TIMEOUT_MS, clientStateReset, makeStore, persistConfig } from './store';

const profile = { id: 1, username: 'ann', name: 'Ann', email: 'ann@x.test', role: { id: 1, name: 'Admin' }, driver: null, tenant: { name: 'Co', schema_name: 't_co' }, permissions: [] } as unknown as Profile;

async function flushPersist() {
  await new Promise((r) => setTimeout(r, 50));
}

describe('persistence scope (spec section 3)', () => {
  it('persists only the login and customer-contact slices', async () => {
    expect(persistConfig.whitelist).toEqual(['login', 'customerContact']);
    expect(PERSISTED_SLICES).toEqual(['login', 'customerContact']);
    expect(PERSIST_TIMEOUT_MS).toBe(5000);
    const { store } = makeStore();
    await flushPersist();
    store.dispatch(loggedIn({ user: profile, at: 1 }));
    store.dispatch(customerContactSlice.actions.contactFilterChanged({ selectedCustomerId: 7 }));
    store.dispatch(settingsSaved({ id: 3, company_name: 'Co', logo: [] } as unknown as CompanySettings));
    await flushPersist();
    const raw = window.localStorage.getItem('persist:root');
    expect(raw).toBeTruthy();
    const saved = JSON.parse(raw!);
    expect(Object.keys(saved).sort()).toEqual(['_persist', 'customerContact', 'login']);
    expect(JSON.parse(saved.login).user.name).toBe('Ann');
    expect(JSON.parse(saved.customerContact).selectedCustomerId).toBe(7);
    expect(raw).not.toContain('company_name');
  });

  it('resets every slice on clientStateReset', () => {
    const { store } = makeStore();
    store.dispatch(loggedIn({ user: profile }));
    store.dispatch(clientStateReset());
    expect(store.getState().login.isLoggedIn).toBe(false);
    expect(store.getState().session.settings).toBeNull();
  });
});
