import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { useEffect } from 'react';
import { Provider } from 'react-redux';
import { BrowserRouter, useLocation, useNavigate } from 'react-router-dom';
import { Slide, ToastContainer } from 'react-toastify';
import { PersistGate } from 'redux-persist/integration/react';
import { PageSpinner } from '@/components/common/PageSpinner';
import { cspNonce } from '@/lib/csp/nonce';
import { trackPage } from '@/lib/tracking/tracking';
import { AppRoutes } from './AppRoutes';
import { setNavigator, startSession } from './session/sessionManager';
import type { makeStore } from './store';
import { theme } from './theme';

/** Spec section 9: top-right, auto-close 5000 ms, light theme, at most 20, max width 350 px. */
export const TOAST_OPTIONS = {
  position: 'top-right',
  autoClose: 5000,
  theme: 'light',
  limit: 20,
  style: { maxWidth: 350 },
} as const;

function SessionBridge({ app }: { app: ReturnType<typeof makeStore> }) {
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    setNavigator((path, opts) => {
      void navigate(path, opts);
    });
    return () => setNavigator(null);
  }, [navigate]);
  useEffect(() => startSession(app.store, app.persistor), [app]);
  useEffect(() => trackPage(location.pathname), [location.pathname]);
  return null;
}

/** Emotion (MUI's styles) writes <style> elements: they carry the page's CSP nonce (core/csp.py). */
const styleCache = createCache({ key: 'css', nonce: cspNonce() });

export function App({ app }: { app: ReturnType<typeof makeStore> }) {
  return (
    <Provider store={app.store}>
      <CacheProvider value={styleCache}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <PersistGate loading={<PageSpinner label="Starting FuelDesk" />} persistor={app.persistor}>
            <BrowserRouter>
              <SessionBridge app={app} />
              <AppRoutes />
            </BrowserRouter>
          </PersistGate>
          <ToastContainer {...TOAST_OPTIONS} transition={Slide} newestOnTop nonce={styleCache.nonce} />
        </ThemeProvider>
      </CacheProvider>
    </Provider>
  );
}
