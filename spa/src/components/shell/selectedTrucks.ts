import { STORAGE_KEYS } from '@/lib/auth/storageKeys';
import type { SelectedTruck } from './types';

/** Fired on the window when the selection changes (the driver pages and the top bar follow it). */
export const TRUCKS_CHANGED_EVENT = 'driver-trucks-changed';

/** Selected trucks are kept in local storage (spec section 3); unreadable data means none. */
export function readSelectedTrucks(): SelectedTruck[] {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEYS.selectedTrucks);
    if (!raw) return [];
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed.filter((t) => t && typeof t === 'object') as SelectedTruck[]) : [];
  } catch {
    return [];
  }
}

export function writeSelectedTrucks(trucks: SelectedTruck[]): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.selectedTrucks, JSON.stringify(trucks));
  } catch {
    /* storage full or unavailable: the selection lives for this page only */
  }
  window.dispatchEvent(new Event(TRUCKS_CHANGED_EVENT));
}

export function truckKey(t: SelectedTruck): string {
  return String(t.id ?? t.asset_id ?? t.assetNumber ?? t.asset_name ?? t.name);
}
