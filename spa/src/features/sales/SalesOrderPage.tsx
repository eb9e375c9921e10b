import { Route, Routes } from 'react-router-dom';
import SalesOrderFormPage from './SalesOrderFormPage';
import SalesOrderListPage from './SalesOrderListPage';

/** /sales-order: the list (and archive); /sales-order/new and /sales-order/{id}: the order form. */
export default function SalesOrderPage() {
  return (
    <Routes>
      <Route index element={<SalesOrderListPage />} />
      <Route path="new" element={<SalesOrderFormPage />} />
      <Route path=":id/*" element={<SalesOrderFormPage />} />
    </Routes>
  );
}
