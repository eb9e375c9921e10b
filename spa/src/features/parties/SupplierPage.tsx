import { Route, Routes } from 'react-router-dom';
import SupplierAliasesPage from './SupplierAliasesPage';
import SupplierListPage from './SupplierListPage';

/** /supplier: suppliers; /supplier/aliases: the names suppliers use for our products. */
export default function SupplierPage() {
  return (
    <Routes>
      <Route index element={<SupplierListPage />} />
      <Route path="aliases" element={<SupplierAliasesPage />} />
      <Route path="*" element={<SupplierListPage />} />
    </Routes>
  );
}
