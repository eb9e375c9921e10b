import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGOUT_FORCED_REDIRECT_MS, MSG_LOGGED_OUT, runLogout, type LogoutDeps } from './logout';

function deps(over: Partial<LogoutDeps> = {}): LogoutDeps & Record<string, ReturnType<typeof vi.fn>> {
  return {
    notify: vi.fn(),
    track: vi.fn(),
    callLogout: vi.fn(() => Promise.resolve()),
    resetState: vi.fn(),
    clearLocal: vi.fn(),
    clearSession: vi.fn(),
    purgePersisted: vi.fn(() => Promise.resolve()),
    clearDatabases: vi.fn(() => Promise.resolve()),
    redirect: vi.fn(),
    logError: vi.fn(),
    ...over,
  } as never;
}

describe('logout sequence (spec section 4)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('toasts, records, calls logout, clears everything, then goes to /', async () => {
    const d = deps();
    await runLogout(d);
    expect(d.notify).toHaveBeenCalledWith(MSG_LOGGED_OUT);
    expect(MSG_LOGGED_OUT).toBe('You have been logged out.');
    expect(d.track).toHaveBeenCalledWith('logout');
    expect(d.callLogout).toHaveBeenCalled();
    expect(d.clearLocal).toHaveBeenCalled();
    expect(d.clearSession).toHaveBeenCalled();
    expect(d.purgePersisted).toHaveBeenCalled();
    expect(d.clearDatabases).toHaveBeenCalled();
    expect(d.redirect).toHaveBeenCalledTimes(1);
    expect(d.redirect).toHaveBeenCalledWith('/');
    // No second redirect from the forced timer.
    vi.advanceTimersByTime(5000);
    expect(d.redirect).toHaveBeenCalledTimes(1);
  });

  it('forces the redirect after 2 s when cleanup hangs', async () => {
    const d = deps({ clearDatabases: vi.fn(() => new Promise<void>(() => {})) });
    void runLogout(d);
    await vi.advanceTimersByTimeAsync(LOGOUT_FORCED_REDIRECT_MS - 1);
    expect(d.redirect).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(d.redirect).toHaveBeenCalledWith('/');
    expect(LOGOUT_FORCED_REDIRECT_MS).toBe(2000);
  });

  it('forces the redirect after 2 s when the logout call hangs, clearing local storage', async () => {
    const d = deps({ callLogout: vi.fn(() => new Promise(() => {})) });
    void runLogout(d);
    await vi.advanceTimersByTimeAsync(2000);
    expect(d.clearLocal).toHaveBeenCalled();
    expect(d.redirect).toHaveBeenCalledWith('/');
  });

  it('logs a failed logout call, clears local storage and goes to /', async () => {
    const d = deps({ callLogout: vi.fn(() => Promise.reject(new Error('offline'))) });
    await runLogout(d);
    expect(d.logError).toHaveBeenCalled();
    expect(d.clearLocal).toHaveBeenCalled();
    expect(d.redirect).toHaveBeenCalledWith('/');
    expect(d.clearDatabases).not.toHaveBeenCalled();
  });
});
