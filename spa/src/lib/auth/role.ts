import { STORAGE_KEYS } from './storageKeys';

/** Reads user_role from local storage; null when it cannot be read. */
export function readUserRole(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.userRole);
  } catch {
    return null;
  }
}

/**
 * Spec section 6: the driver layout is used when user_role equals "driver" in any case.
 * Any failure to read the role means the user is treated as a non-driver.
 */
export function isDriverRole(read: () => string | null = readUserRole): boolean {
  try {
    const role = read();
    return typeof role === 'string' && role.trim().toLowerCase() === 'driver';
  } catch {
    return false;
  }
}
