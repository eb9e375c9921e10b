import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { isDriverRole } from '@/lib/auth/role';
import { usePermissions } from '@/lib/api/lookups';

/**
 * What an office user sees on a driver's page (/todays-order, /daily-summary): not the driver
 * layout with a 403, but a page that says whose page it is and links back home (and, for those who
 * plan deliveries, to the Dispatch Center, where every driver's stops are).
 */
export function DriversOnlyPage({ page }: { page: string }) {
  const dispatcher = usePermissions('dispatch').view;
  useEffect(() => {
    document.title = `${page} · FuelDesk`;
  }, [page]);
  return (
    <Box data-testid="drivers-only" sx={{ minHeight: '60vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', textAlign: 'center', p: 3, gap: 1.5 }}>
      <Typography component="h1" variant="h5" sx={{ fontWeight: 700 }}>
        {page} is the drivers&apos; page
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 480 }}>
        It shows a driver the stops assigned to him, on a phone. Your sign-in is not a driver&apos;s: the office
        plans and follows deliveries in the Dispatch Center and on the order board.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 1 }}>
        <Button component={RouterLink} to="/dashboard" variant="contained">
          Go to the dashboard
        </Button>
        {dispatcher && (
          <Button component={RouterLink} to="/dispatch-center" variant="outlined">
            Open the Dispatch Center
          </Button>
        )}
      </Stack>
    </Box>
  );
}

/** A driver's page for drivers; the office notice for everyone else. */
export function DriversOnly({ page, children }: { page: string; children: ReactNode }) {
  return isDriverRole() ? <>{children}</> : <DriversOnlyPage page={page} />;
}
