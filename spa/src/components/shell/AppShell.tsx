import useMediaQuery from '@mui/material/useMediaQuery';
import { isDriverRole } from '@/lib/auth/role';
import { DesktopShell } from './DesktopShell';
import { DriverShell } from './DriverShell';
import { MOBILE_QUERY } from './layout';
import { MobileShell } from './MobileShell';
import type { ShellProps } from './types';

/** Picks the layout: driver (role 'driver' in any case), phone (≤ 768px) or desktop. */
export function AppShell(props: ShellProps & { isDriver?: boolean }) {
  const phone = useMediaQuery(MOBILE_QUERY, { noSsr: true });
  const driver = props.isDriver ?? isDriverRole();
  if (driver) return <DriverShell {...props} />;
  return phone ? <MobileShell {...props} /> : <DesktopShell {...props} />;
}
