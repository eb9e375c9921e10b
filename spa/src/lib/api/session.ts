/**
 * The bridge between API calls and the session: lib/api must not import the app, so the app
 * registers how to notify, clear state and redirect (see src/app/session/sessionManager.ts).
 */
export interface SessionHandlers {
  /** Shows an error toast. */
  notifyError: (message: string) => void;
  /** Clears local storage, session storage and the in-memory/persisted client state. */
  clearClientState: () => void;
  /** Removes only the token. */
  removeToken: () => void;
  /** Client-side navigation with history replacement (falls back to location.replace). */
  redirect: (path: string) => void;
  /** Runs the logout sequence of spec section 4 (used when a token is expired or undecodable). */
  logout: () => void;
}

const fallback: SessionHandlers = {
  notifyError: (message) => console.warn(message),
  clearClientState: () => {
    try {
      window.localStorage.clear();
      window.sessionStorage.clear();
    } catch {
      /* storage unavailable */
    }
  },
  removeToken: () => {
    try {
      window.localStorage.removeItem('token');
    } catch {
      /* storage unavailable */
    }
  },
  redirect: (path) => window.location.replace(path),
  logout: () => window.location.replace('/'),
};

let handlers: SessionHandlers = fallback;

export function registerSessionHandlers(next: Partial<SessionHandlers>): void {
  handlers = { ...handlers, ...next };
}

export function sessionHandlers(): SessionHandlers {
  return handlers;
}

export function resetSessionHandlers(): void {
  handlers = fallback;
}
