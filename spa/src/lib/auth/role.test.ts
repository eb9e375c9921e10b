import { describe, expect, it } from 'vitest';
import { isDriverRole } from './role';

describe('driver detection (spec section 6)', () => {
  it.each(['driver', 'Driver', 'DRIVER', ' dRiVeR '])('treats %j as a driver', (role) => {
    expect(isDriverRole(() => role)).toBe(true);
  });

  it.each(['Admin', 'drivers', 'Dispatcher', '', null])('treats %j as a non-driver', (role) => {
    expect(isDriverRole(() => role)).toBe(false);
  });

  it('treats a failure to read the role as a non-driver', () => {
    expect(
      isDriverRole(() => {
        throw new Error('storage blocked');
      }),
    ).toBe(false);
  });

  it('reads user_role from local storage by default', () => {
    window.localStorage.setItem('user_role', 'Driver');
    expect(isDriverRole()).toBe(true);
    window.localStorage.setItem('user_role', 'Admin');
    expect(isDriverRole()).toBe(false);
  });
});
