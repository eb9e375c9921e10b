import { ThemeProvider } from '@mui/material/styles';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { theme } from '@/app/theme';
import { makeStore } from '@/app/store';

export function renderWithProviders(ui: ReactElement, { route = '/', app = makeStore() } = {}) {
  const result = render(
    <Provider store={app.store}>
      <ThemeProvider theme={theme}>
        <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
      </ThemeProvider>
    </Provider>,
  );
  return { ...result, app };
}
