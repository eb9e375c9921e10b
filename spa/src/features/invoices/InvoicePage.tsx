import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import AgingPage from './AgingPage';
import InvoiceListPage from './InvoiceListPage';
import InvoiceViewPage from './InvoiceViewPage';
import PaymentsPage from './PaymentsPage';
import StatementPage from './StatementPage';

const TABS = [
  { value: '/invoice', label: 'Invoices' },
  { value: '/invoice/payments', label: 'Payments' },
  { value: '/invoice/statement', label: 'Statements' },
  { value: '/invoice/aging', label: 'AR aging' },
];

/** Receivables' sub-pages: the list, payments, statements and aging (the invoice view has none). */
function ReceivablesTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = TABS.find((t) => t.value !== '/invoice' && pathname.startsWith(t.value))?.value ?? '/invoice';
  return (
    <Tabs value={current} onChange={(_, v: string) => navigate(v)} variant="scrollable" allowScrollButtonsMobile sx={{ px: { xs: 1, sm: 3 }, pt: 1 }} aria-label="Receivables">
      {TABS.map((t) => (
        <Tab key={t.value} value={t.value} label={t.label} />
      ))}
    </Tabs>
  );
}

/** /invoice: the list; /invoice/{id}: one invoice; /invoice/payments, /statement, /aging: receivables. */
export default function InvoicePage() {
  return (
    <Routes>
      <Route index element={<><ReceivablesTabs /><InvoiceListPage /></>} />
      <Route path="payments" element={<><ReceivablesTabs /><PaymentsPage /></>} />
      <Route path="statement" element={<><ReceivablesTabs /><StatementPage /></>} />
      <Route path="aging" element={<><ReceivablesTabs /><AgingPage /></>} />
      <Route path=":id/*" element={<InvoiceViewPage />} />
    </Routes>
  );
}
