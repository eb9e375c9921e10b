import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRACKING_RETRY_MS, pageTypeFor, startWithRetry } from './tracking';

describe('session tracking (spec section 4)', () => {
  afterEach(() => vi.useRealTimers());

  it('tags the page type by the first path segment', () => {
    expect(pageTypeFor('/delivery-order-entry/5')).toBe('delivery_order');
    expect(pageTypeFor('/sales-order/12')).toBe('sales_order');
    expect(pageTypeFor('/dashboard')).toBe('dashboard');
    expect(pageTypeFor('/todays-order')).toBe('driver_orders');
    expect(pageTypeFor('/customer')).toBe('other');
  });

  it('tags the role from user_role and retries a failed start after 1000 ms', () => {
    vi.useFakeTimers();
    window.localStorage.setItem('user_role', 'Driver');
    let ready = false;
    const setTag = vi.fn();
    const mod = { setTag, getClient: () => (ready ? ({} as never) : undefined) };
    startWithRetry(mod as never, () => '/todays-order');
    expect(setTag).not.toHaveBeenCalled();
    ready = true;
    vi.advanceTimersByTime(TRACKING_RETRY_MS);
    expect(TRACKING_RETRY_MS).toBe(1000);
    expect(setTag).toHaveBeenCalledWith('user_role', 'Driver');
    expect(setTag).toHaveBeenCalledWith('page_type', 'driver_orders');
  });
});
