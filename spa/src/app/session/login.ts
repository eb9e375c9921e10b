import { STORAGE_KEYS } from '@/lib/auth/storageKeys';
import { setToken } from '@/lib/auth/token';
import { resetUnauthorizedState } from '@/lib/api/unauthorized';
import type { AppDispatch } from '../store';
import { loggedIn } from './loginSlice';
import { announceLogin } from './sessionManager';
import { rememberUser } from './sessionSlice';
import type { SessionData } from './types';

/** Stores a session answer of /login or /tenant and announces the login ('userLoggedIn'). */
export function storeSession(dispatch: AppDispatch, session: SessionData): void {
  resetUnauthorizedState();
  setToken(session.access_token);
  rememberUser(session.user);
  dispatch(loggedIn({ user: session.user }));
  announceLogin();
}

/** Where a signed-in user lands: drivers on their orders, everyone else on the dashboard. */
export function landingPath(): string {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.userRole)?.trim().toLowerCase() === 'driver' ? '/todays-order' : '/dashboard';
  } catch {
    return '/dashboard';
  }
}
