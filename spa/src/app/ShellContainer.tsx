import { Outlet } from 'react-router-dom';
import { AppShell } from '@/components/shell/AppShell';
import { useAuthedObjectUrl } from '@/components/common/useAuthedObjectUrl';
import { STORAGE_KEYS } from '@/lib/auth/storageKeys';
import { useAppSelector } from '@/lib/session/hooks';
import { logout } from './session/sessionManager';
import { loadTrucks } from './trucks';

function storedName(): string {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.userName) || window.localStorage.getItem(STORAGE_KEYS.username) || '';
  } catch {
    return '';
  }
}

/** The driver's offline queue, loaded only when a driver logs out (its IndexedDB code stays out of the
 * office bundle). */
async function countUnsent(): Promise<number> {
  const { pendingCount } = await import('@/features/driver/queue');
  return pendingCount();
}

/** Connects the shell to the session: company name and logo, user name, logout. */
export function ShellContainer() {
  const settings = useAppSelector((s) => s.session.settings);
  const user = useAppSelector((s) => s.session.profile ?? s.login.user);
  const logoFile = settings?.logo?.[0];
  const logoUrl = useAuthedObjectUrl(logoFile?.file_url);
  const userName = user?.name || user?.username || storedName() || 'Account';
  return (
    <AppShell companyName={settings?.company_name ?? null} logoUrl={logoUrl} userName={userName} onLogout={() => void logout()} loadTrucks={loadTrucks} countUnsent={countUnsent}>
      <Outlet />
    </AppShell>
  );
}

export default ShellContainer;
