import { Route, Routes } from 'react-router-dom';
import BillFormPage from './BillFormPage';
import BillListPage from './BillListPage';
import PurchaseOrderFormPage from './PurchaseOrderFormPage';
import PurchaseOrderListPage from './PurchaseOrderListPage';

/**
 * /purchase-order: the list; /purchase-order/new and /purchase-order/{id}: the order form.
 * Bills (spec: no route of their own) live under the same protected prefix:
 * /purchase-order/bills, /purchase-order/bills/new, /purchase-order/bills/{id}.
 */
export default function PurchaseOrderPage() {
  return (
    <Routes>
      <Route index element={<PurchaseOrderListPage />} />
      <Route path="new" element={<PurchaseOrderFormPage />} />
      <Route path="bills" element={<BillListPage />} />
      <Route path="bills/new" element={<BillFormPage />} />
      <Route path="bills/:id" element={<BillFormPage />} />
      <Route path=":id" element={<PurchaseOrderFormPage />} />
    </Routes>
  );
}
