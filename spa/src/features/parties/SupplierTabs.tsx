import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Link as RouterLink, useLocation } from 'react-router-dom';

/** Suppliers | Product aliases (the names suppliers use for our products). */
export function SupplierTabs() {
  const { pathname } = useLocation();
  const value = pathname.startsWith('/supplier/aliases') ? 'aliases' : 'suppliers';
  return (
    <Tabs value={value} sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }} aria-label="Supplier pages">
      <Tab value="suppliers" label="Suppliers" component={RouterLink} to="/supplier" />
      <Tab value="aliases" label="Product aliases" component={RouterLink} to="/supplier/aliases" />
    </Tabs>
  );
}
