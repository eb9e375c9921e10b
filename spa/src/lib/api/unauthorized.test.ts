import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerSessionHandlers, resetSessionHandlers } from './session';
import { areaForPath, handleUnauthorized, resetUnauthorizedState } from './unauthorized';

describe('unauthorized handling (spec sections 8 and 9)', () => {
  const h = { notifyError: vi.fn(), clearClientState: vi.fn(), removeToken: vi.fn(), redirect: vi.fn(), logout: vi.fn() };
  beforeEach(() => {
    vi.useFakeTimers();
    Object.values(h).forEach((f) => f.mockReset());
    registerSessionHandlers(h);
  });
  afterEach(() => {
    resetUnauthorizedState();
    resetSessionHandlers();
    vi.useRealTimers();
  });

  it('data calls: toast the detail, clear storage, go to / after 5.2 s', () => {
    handleUnauthorized('Your session has ended.', 'data');
    expect(h.notifyError).toHaveBeenCalledWith('Your session has ended.');
    expect(h.clearClientState).toHaveBeenCalled();
    vi.advanceTimersByTime(5199);
    expect(h.redirect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(h.redirect).toHaveBeenCalledWith('/');
  });

  it('settings: the same 5.2 s', () => {
    handleUnauthorized(undefined, 'settings');
    expect(h.notifyError).toHaveBeenCalledWith('Session expired. Please log in again.');
    vi.advanceTimersByTime(5200);
    expect(h.redirect).toHaveBeenCalledWith('/');
  });

  it.each(['role', 'permission', 'email-agent'] as const)("%s calls: 'Unauthorized access', / after 2 s", (area) => {
    handleUnauthorized('Unauthorized', area);
    expect(h.notifyError).toHaveBeenCalledWith('Unauthorized access');
    expect(h.clearClientState).toHaveBeenCalled();
    vi.advanceTimersByTime(1999);
    expect(h.redirect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(h.redirect).toHaveBeenCalledWith('/');
  });

  it('invoice calls: 2 s', () => {
    handleUnauthorized('x', 'invoice');
    vi.advanceTimersByTime(2000);
    expect(h.redirect).toHaveBeenCalledWith('/');
  });

  it('email calls: remove the token and go to /login at once', () => {
    handleUnauthorized('x', 'email');
    expect(h.removeToken).toHaveBeenCalled();
    expect(h.redirect).toHaveBeenCalledWith('/login');
  });

  it('sales-order soft calls redirect without clearing storage', () => {
    handleUnauthorized('x', 'sales-order-soft');
    expect(h.clearClientState).not.toHaveBeenCalled();
    vi.advanceTimersByTime(5200);
    expect(h.redirect).toHaveBeenCalledWith('/');
  });

  it('reacts once while a redirect is pending', () => {
    handleUnauthorized('a', 'data');
    handleUnauthorized('b', 'data');
    expect(h.notifyError).toHaveBeenCalledTimes(1);
  });

  it('picks the area from the path', () => {
    expect(areaForPath('/role/current-user')).toBe('role');
    expect(areaForPath('/api/permission')).toBe('permission');
    expect(areaForPath('/email-agent/5/verify')).toBe('email-agent');
    expect(areaForPath('/email/?page=1')).toBe('email');
    expect(areaForPath('/invoice/4/email')).toBe('email');
    expect(areaForPath('/invoice/4')).toBe('invoice');
    expect(areaForPath('/company-settings/')).toBe('settings');
    expect(areaForPath('/user-account')).toBe('user');
    expect(areaForPath('/customer/customers')).toBe('data');
  });
});
