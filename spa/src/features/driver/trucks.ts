import type { SelectedTruck } from '@/components/shell/types';
import { apiRequest } from '@/lib/api/http';

/** The company's active trucks for the truck-selection modal. */
export async function loadDriverTrucks(): Promise<SelectedTruck[]> {
  const res = await apiRequest<{ data?: { items?: SelectedTruck[] } }>('/company-asset', { params: { page: 1, size: 100, is_active: true } });
  return res.message?.data?.items ?? [];
}
