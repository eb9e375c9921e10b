import { toast } from 'react-toastify';
import type { Persistor } from 'redux-persist';
import { api } from '@/lib/api/api';
import { apiRequest } from '@/lib/api/http';
import { registerSessionHandlers } from '@/lib/api/session';
import { hasPendingUnauthorizedRedirect } from '@/lib/api/unauthorized';
import { STORAGE_KEYS } from '@/lib/auth/storageKeys';
import { getToken, removeToken, tokenExpiresAt, tokenState } from '@/lib/auth/token';
import { trackEvent, trackRole } from '@/lib/tracking/tracking';
import { USER_LOGGED_IN_EVENT } from '@/lib/session/login';
import { clientStateReset, type AppStore } from '../store';
import { clearIndexedDb, runLogout } from './logout';
import { MSG_FETCH_PROFILE_FAILED, MSG_FETCH_SETTINGS_FAILED, fetchCompanySettings, fetchProfile } from '@/lib/session/sessionSlice';

export { USER_LOGGED_IN_EVENT };
const MAX_TIMEOUT = 2_147_483_647;

type Navigate = (path: string, opts?: { replace?: boolean }) => void;

let store: AppStore | null = null;
let persistor: Persistor | null = null;
let navigateFn: Navigate | null = null;
let expiryTimer: ReturnType<typeof setTimeout> | null = null;
let fetchedForToken: string | null = null;
let loggingOut = false;

export function setNavigator(fn: Navigate | null): void {
  navigateFn = fn;
}

export function redirect(path: string): void {
  if (navigateFn) navigateFn(path, { replace: true });
  else window.location.replace(path);
}

function clearLocal() {
  try {
    window.localStorage.clear();
  } catch {
    /* unavailable */
  }
}

function clearSession() {
  try {
    window.sessionStorage.clear();
  } catch {
    /* unavailable */
  }
}

function resetState() {
  store?.dispatch(clientStateReset());
  store?.dispatch(api.util.resetApiState());
  fetchedForToken = null;
  cancelExpiryWatch();
}

/** Clears local storage, session storage and the client state (unauthorized answers). */
export function clearClientState(): void {
  resetState();
  void persistor?.purge();
  clearLocal();
  clearSession();
}

/** Logs out (spec section 4). Safe to call more than once: a logout in progress is not repeated. */
export async function logout(): Promise<void> {
  if (loggingOut) return;
  loggingOut = true;
  const hadLiveToken = tokenState() === 'valid';
  try {
    await runLogout({
      notify: (m) => toast.error(m, { toastId: 'logged-out' }),
      track: (e) => trackEvent(e),
      // An expired or broken token has nothing to revoke: skip the call instead of sending it.
      callLogout: () => (hadLiveToken ? apiRequest('/logout', { method: 'POST' }) : Promise.resolve(null)),
      resetState,
      clearLocal,
      clearSession,
      purgePersisted: () => persistor?.purge() ?? Promise.resolve(),
      clearDatabases: clearIndexedDb,
      redirect,
      logError: (message, error) => console.warn(message, error),
    });
  } finally {
    loggingOut = false;
  }
}

export function cancelExpiryWatch(): void {
  if (expiryTimer) clearTimeout(expiryTimer);
  expiryTimer = null;
}

/** Logs out now if the stored token is expired or undecodable, else when it expires. */
export function watchTokenExpiry(now: number = Date.now()): void {
  cancelExpiryWatch();
  const token = getToken();
  const state = tokenState(token, now);
  if (state === 'missing') return;
  if (state === 'expired' || state === 'invalid') {
    void logout();
    return;
  }
  const at = token ? tokenExpiresAt(token) : null;
  if (at === null) return;
  expiryTimer = setTimeout(() => {
    expiryTimer = null;
    watchTokenExpiry();
  }, Math.min(Math.max(at - now, 0), MAX_TIMEOUT));
}

/** Fetches company settings and profile once per login. */
export function fetchSessionDataOnce(): void {
  const token = getToken();
  if (!token || tokenState(token) !== 'valid' || !store) return;
  if (fetchedForToken === token) return;
  fetchedForToken = token;
  void store.dispatch(fetchCompanySettings()).then((action) => {
    if (fetchCompanySettings.rejected.match(action) && !hasPendingUnauthorizedRedirect()) toast.error(MSG_FETCH_SETTINGS_FAILED, { toastId: 'settings-failed' });
  });
  void store.dispatch(fetchProfile()).then((action) => {
    if (fetchProfile.rejected.match(action) && !hasPendingUnauthorizedRedirect()) toast.error(MSG_FETCH_PROFILE_FAILED, { toastId: 'profile-failed' });
    try {
      trackRole(window.localStorage.getItem(STORAGE_KEYS.userRole));
    } catch {
      /* unavailable */
    }
  });
}

function onStorage(e: StorageEvent) {
  if (e.key !== STORAGE_KEYS.token && e.key !== null) return;
  if (getToken()) {
    // Another tab signed in.
    watchTokenExpiry();
    fetchSessionDataOnce();
  } else if (fetchedForToken) {
    // Another tab signed out: follow it.
    resetState();
    redirect('/');
  }
}

function onUserLoggedIn() {
  watchTokenExpiry();
  fetchSessionDataOnce();
}

function onFocus() {
  if (getToken()) watchTokenExpiry();
}

/** Wires the session rules to the store; returns a function that unwires them. */
export function startSession(s: AppStore, p: Persistor): () => void {
  store = s;
  persistor = p;
  registerSessionHandlers({
    notifyError: (m) => toast.error(m, { toastId: `err-${m}` }),
    clearClientState,
    removeToken,
    redirect,
    logout: () => void logout(),
  });
  window.addEventListener('storage', onStorage);
  window.addEventListener(USER_LOGGED_IN_EVENT, onUserLoggedIn);
  window.addEventListener('focus', onFocus);
  watchTokenExpiry();
  fetchSessionDataOnce();
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(USER_LOGGED_IN_EVENT, onUserLoggedIn);
    window.removeEventListener('focus', onFocus);
    cancelExpiryWatch();
    store = null;
    persistor = null;
    fetchedForToken = null;
  };
}
