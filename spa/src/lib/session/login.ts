import { STORAGE_KEYS } from '@/lib/auth/storageKeys';
import { setToken } from '@/lib/auth/token';
import { resetUnauthorizedState } from '@/lib/api/unauthorized';
import type { SharedDispatch } from './hooks';
import { loggedIn } from './loginSlice';
import { rememberUser } from './sessionSlice';
import type { SessionData } from './types';

/** Window event the sign-in and sign-up pages fire after storing a token (app/session/sessionManager listens). */
export const USER_LOGGED_IN_EVENT = 'userLoggedIn';

function announceLogin(): void {
  window.dispatchEvent(new Event(USER_LOGGED_IN_EVENT));
}

/** Stores a session answer of /login or /tenant and announces the login ('userLoggedIn'). */
export function storeSession(dispatch: SharedDispatch, session: SessionData): void {
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
