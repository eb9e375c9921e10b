/** The logout sequence of spec section 4, with its dependencies injected (tested with fake timers). */

export const MSG_LOGGED_OUT = 'You have been logged out.';
export const LOGOUT_FORCED_REDIRECT_MS = 2000;

export interface LogoutDeps {
  notify: (message: string) => void;
  track: (event: string) => void;
  /** POST /api/logout; rejects when the call fails. */
  callLogout: () => Promise<unknown>;
  resetState: () => void;
  clearLocal: () => void;
  clearSession: () => void;
  purgePersisted: () => Promise<unknown>;
  clearDatabases: () => Promise<unknown>;
  redirect: (path: string) => void;
  logError: (message: string, error: unknown) => void;
}

/**
 * Toast 'You have been logged out.', record the event, call logout, clear local storage, session
 * storage, persisted state and IndexedDB databases, then go to /. A forced redirect fires after
 * 2 s if any of it hangs. If the logout call fails: log it, clear local storage, go to /.
 */
export async function runLogout(deps: LogoutDeps): Promise<void> {
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(forced);
    deps.redirect('/');
  };
  deps.notify(MSG_LOGGED_OUT);
  deps.track('logout');
  const forced = setTimeout(() => {
    if (finished) return;
    try {
      deps.resetState();
      deps.clearLocal();
      deps.clearSession();
    } catch {
      /* best effort */
    }
    finish();
  }, LOGOUT_FORCED_REDIRECT_MS);

  try {
    await deps.callLogout();
  } catch (err) {
    deps.logError('Logout call failed', err);
    deps.resetState();
    deps.clearLocal();
    finish();
    return;
  }
  if (finished) return;
  try {
    deps.resetState();
    deps.clearLocal();
    deps.clearSession();
    await deps.purgePersisted();
    deps.clearLocal();
    await deps.clearDatabases();
  } catch (err) {
    deps.logError('Logout cleanup failed', err);
    deps.clearLocal();
  }
  finish();
}

/** Deletes every IndexedDB database of this origin. */
export async function clearIndexedDb(): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  const list = typeof indexedDB.databases === 'function' ? await indexedDB.databases() : [];
  await Promise.all(
    list.map(
      (db) =>
        new Promise<void>((resolve) => {
          if (!db.name) return resolve();
          const req = indexedDB.deleteDatabase(db.name);
          req.onsuccess = () => resolve();
          req.onerror = () => resolve();
          req.onblocked = () => resolve();
        }),
    ),
  );
}
