import Logout from '@mui/icons-material/Logout';
import LocalShipping from '@mui/icons-material/LocalShipping';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect, useState } from 'react';
import { readSelectedTrucks, truckKey, TRUCKS_CHANGED_EVENT, writeSelectedTrucks } from './selectedTrucks';
import { truckDetail, truckLabel, type SelectedTruck, type ShellProps } from './types';

// The modal (a list with checkboxes) loads when first opened: the driver pages' first load stays small.
const TruckModal = lazy(() => import('./TruckModal'));

/** The driver layout: no rail, no bottom bar; a top bar with trucks, the user and logout. */
export function DriverShell({ userName, onLogout, loadTrucks, countUnsent, children }: ShellProps) {
  const [trucks, setTrucks] = useState<SelectedTruck[]>(readSelectedTrucks);
  const [modalOpen, setModalOpen] = useState(false);
  // Logging out clears this phone's storage (spec section 4), the offline queue with it: a driver with
  // deliveries not yet sent is asked first instead of losing them silently.
  const [unsent, setUnsent] = useState(0);
  const requestLogout = async () => {
    const count = countUnsent ? await countUnsent().catch(() => 0) : 0;
    if (count > 0) setUnsent(count);
    else onLogout();
  };
  useEffect(() => {
    const follow = () => setTrucks(readSelectedTrucks());
    window.addEventListener(TRUCKS_CHANGED_EVENT, follow);
    return () => window.removeEventListener(TRUCKS_CHANGED_EVENT, follow);
  }, []);

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }} data-testid="driver-layout">
      {/* Compact on a phone (two short rows, ~90px of 844): the stops are what the driver came for. */}
      <AppBar position="sticky" color="primary" elevation={2} data-testid="driver-header">
        <Box
          sx={{
            display: 'flex', alignItems: 'center', flexWrap: { xs: 'wrap', md: 'nowrap' }, columnGap: 1.5, rowGap: 0.5,
            px: { xs: 1.5, sm: 3 }, py: { xs: 0.75, md: 1 }, minHeight: { md: 64 },
          }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexShrink: 0, order: 1 }}>
            <Typography component="h1" sx={{ fontWeight: 700, fontSize: { xs: 17, md: 20 }, whiteSpace: 'nowrap' }}>
              Driver App
            </Typography>
            <Chip label="Driver Portal" size="small" sx={{ bgcolor: '#ffb300', color: '#1a1a1a', fontWeight: 700, height: 22 }} />
          </Box>
          <Box
            data-testid="selected-trucks"
            sx={{
              display: 'flex', alignItems: 'center', gap: 0.75, minWidth: 0, order: { xs: 3, md: 2 },
              flex: { xs: '1 1 100%', md: '1 1 auto' },
            }}
          >
            <LocalShipping fontSize="small" aria-hidden sx={{ flexShrink: 0 }} />
            <Box sx={{ display: 'flex', gap: 0.5, minWidth: 0, overflowX: 'auto', scrollbarWidth: 'none' }}>
              {trucks.length === 0 ? (
                <Typography variant="body2" noWrap>
                  No truck selected
                </Typography>
              ) : (
                trucks.map((t) => (
                  <Chip
                    key={truckKey(t)}
                    label={truckLabel(t)}
                    title={truckDetail(t)}
                    size="small"
                    variant="outlined"
                    data-testid="truck-chip"
                    sx={{ color: '#fff', borderColor: 'rgba(255,255,255,0.6)', flexShrink: 0, '& .MuiChip-label': { overflow: 'visible' } }}
                  />
                ))
              )}
            </Box>
            <Button size="small" color="inherit" variant="outlined" onClick={() => setModalOpen(true)} sx={{ ml: 'auto', flexShrink: 0, whiteSpace: 'nowrap', py: 0.25 }}>
              Change Trucks
            </Button>
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, ml: 'auto', minWidth: 0, order: { xs: 2, md: 3 } }}>
            <Typography variant="body2" data-testid="driver-user-name" noWrap sx={{ fontWeight: 600, maxWidth: { xs: '34vw', md: 220 } }}>
              {userName}
            </Typography>
            <Button
              color="inherit"
              size="small"
              onClick={() => void requestLogout()}
              aria-label={`Log out ${userName}`}
              sx={{ minWidth: 40, minHeight: 40, whiteSpace: 'nowrap' }}
            >
              <Logout fontSize="small" />
              <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' }, ml: 0.75 }}>
                Logout
              </Box>
            </Button>
          </Box>
        </Box>
      </AppBar>
      <Box component="main" id="main-content" sx={{ p: { xs: 1.5, sm: 3 } }}>
        {children}
      </Box>
      <Dialog open={unsent > 0} onClose={() => setUnsent(0)} aria-labelledby="unsent-title" aria-describedby="unsent-text">
        <DialogTitle id="unsent-title">Deliveries not sent yet</DialogTitle>
        <DialogContent>
          <DialogContentText id="unsent-text">
            {unsent === 1 ? '1 delivery action is' : `${unsent} delivery actions are`} still waiting on this phone for a
            connection. Logging out now deletes {unsent === 1 ? 'it' : 'them'}: stay signed in until the banner says
            everything is sent.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={() => setUnsent(0)} autoFocus>
            Stay signed in
          </Button>
          <Button
            color="error"
            onClick={() => {
              setUnsent(0);
              onLogout();
            }}
          >
            Log out anyway
          </Button>
        </DialogActions>
      </Dialog>
      <Suspense fallback={null}>
        {modalOpen && (
          <TruckModal
            open
            selected={trucks}
            loadTrucks={loadTrucks}
            onClose={() => setModalOpen(false)}
            onSave={(next) => {
              writeSelectedTrucks(next);
              setTrucks(next);
              setModalOpen(false);
            }}
          />
        )}
      </Suspense>
    </Box>
  );
}
