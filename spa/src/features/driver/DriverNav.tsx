import Button from '@mui/material/Button';
import ButtonGroup from '@mui/material/ButtonGroup';
import { Link as RouterLink, useLocation } from 'react-router-dom';

/** The driver layout has no menu: the two driver pages link to each other. */
export function DriverNav() {
  const { pathname } = useLocation();
  const item = (to: string, label: string) => (
    <Button
      component={RouterLink}
      to={to}
      variant={pathname === to ? 'contained' : 'outlined'}
      aria-current={pathname === to ? 'page' : undefined}
      sx={{ minHeight: 44, flex: 1 }}
    >
      {label}
    </Button>
  );
  return (
    <ButtonGroup fullWidth sx={{ mb: 1.5 }} aria-label="Driver pages">
      {item('/todays-order', "Today's stops")}
      {item('/daily-summary', 'Daily summary')}
    </ButtonGroup>
  );
}
