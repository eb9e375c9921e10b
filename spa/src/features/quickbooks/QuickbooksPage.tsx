import { useLocation } from 'react-router-dom';
import ConnectionPage from './ConnectionPage';
import MapItemsPage from './MapItemsPage';

/** /quickbook-online (and /quickbook/login, where the OAuth callback lands) and /quickbook-online/map-items. */
export default function QuickbooksPage() {
  const { pathname } = useLocation();
  return pathname.startsWith('/quickbook-online/map-items') ? <MapItemsPage /> : <ConnectionPage />;
}
