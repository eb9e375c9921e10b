/** Saved views of the order list: named sets of the page's filters, kept in this browser. */
export interface SavedView {
  name: string;
  status: string | null;
  customerId: number | null;
  start: string;
  end: string;
}

const KEY = 'sales_order_views';

export function loadViews(): SavedView[] {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(raw) ? (raw as SavedView[]).filter((v) => v && typeof v.name === 'string') : [];
  } catch {
    return [];
  }
}

export function saveViews(views: SavedView[]): void {
  localStorage.setItem(KEY, JSON.stringify(views));
}
