import { Route, Routes } from 'react-router-dom';
import CustomerDetailPage from './CustomerDetailPage';
import CustomerListPage from './CustomerListPage';

/** /customer: the list; /customer/{id}: one customer with its ship-tos and tanks. */
export default function CustomerPage() {
  return (
    <Routes>
      <Route index element={<CustomerListPage />} />
      <Route path=":id/*" element={<CustomerDetailPage />} />
    </Routes>
  );
}
