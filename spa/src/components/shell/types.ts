import type { ReactNode } from 'react';

export const COMPANY_PLACEHOLDER = 'Your Company';

export interface SelectedTruck {
  id?: number | string;
  asset_id?: number | string;
  asset_name?: string;
  name?: string;
  assetNumber?: string;
  asset_number?: string;
}

/** What the shell needs from the app; the shell itself knows no store and no API. */
export interface ShellProps {
  companyName: string | null;
  logoUrl: string | null;
  userName: string;
  onLogout: () => void;
  children: ReactNode;
  /** Driver layout only: loads the company's trucks for the 'Change Trucks' modal. */
  loadTrucks?: () => Promise<SelectedTruck[]>;
  /** Driver layout only: how many delivery actions wait in this phone's queue (logging out clears it). */
  countUnsent?: () => Promise<number>;
}

/** The truck as drivers call it: its number ('T-102'), else its name. */
export function truckLabel(t: SelectedTruck): string {
  return String(t.asset_number || t.assetNumber || t.asset_name || t.name || t.asset_id || t.id || 'Truck');
}

/** The truck's name ('Peterbilt 567') when it differs from its label, for a second line. */
export function truckDetail(t: SelectedTruck): string | undefined {
  const name = t.asset_name || t.name;
  return name && name !== truckLabel(t) ? name : undefined;
}
