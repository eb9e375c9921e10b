import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import DueListPage from './DueListPage';
import { ReadingsPage, WeatherPage } from './ImportsPages';
import TankPage from './TankPage';

const TABS = [
  { value: '/forecast', label: 'Due list' },
  { value: '/forecast/readings', label: 'Readings' },
  { value: '/forecast/weather', label: 'Weather' },
];

function ForecastTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = TABS.slice(1).find((t) => pathname.startsWith(t.value))?.value ?? TABS[0].value;
  return (
    <Tabs value={current} onChange={(_, v: string) => navigate(v)} variant="scrollable" allowScrollButtonsMobile aria-label="Keep-full forecast" sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
      {TABS.map((t) => (
        <Tab key={t.value} value={t.value} label={t.label} />
      ))}
    </Tabs>
  );
}

function Tabbed({ children }: { children: React.ReactNode }) {
  return (
    <>
      <PageHeader title="Keep-Full Forecast" subtitle="Tanks that reach their reorder point soon, with the delivery that fills them before they run out." />
      <ForecastTabs />
      {children}
    </>
  );
}

/** /forecast/*: the due list, a tank's forecast, readings and weather. */
export default function ForecastPage() {
  return (
    <PageBody>
      <Routes>
        <Route index element={<Tabbed><DueListPage /></Tabbed>} />
        <Route path="readings" element={<Tabbed><ReadingsPage /></Tabbed>} />
        <Route path="weather" element={<Tabbed><WeatherPage /></Tabbed>} />
        <Route path="tank/:assetId" element={<TankPage />} />
        <Route path="*" element={<Tabbed><DueListPage /></Tabbed>} />
      </Routes>
    </PageBody>
  );
}
