import type { SelectedTruck } from '@/components/shell/types';
import { isApiError } from '@/lib/api/errors';
import { apiRequest } from '@/lib/api/http';

/**
 * The company's trucks for the driver's 'Change Trucks' modal: GET /api/company-asset.
 * Until the fleet screens exist the call answers 404; that (and a missing permission) means
 * "no trucks yet", not an error.
 */
export async function loadTrucks(): Promise<SelectedTruck[]> {
  try {
    const result = await apiRequest<{ data?: unknown }>('/company-asset', { params: { page: 1, size: 100, is_active: true } });
    const data = result.message?.data;
    const items = Array.isArray(data) ? data : data && typeof data === 'object' && Array.isArray((data as { items?: unknown }).items) ? (data as { items: unknown[] }).items : [];
    return items.filter((t): t is SelectedTruck => !!t && typeof t === 'object');
  } catch (err) {
    if (isApiError(err) && (err.status === 404 || err.status === 403 || err.status === 405)) return [];
    throw err;
  }
}
