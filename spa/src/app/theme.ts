import { createTheme } from '@mui/material/styles';
import type {} from '@mui/x-data-grid/themeAugmentation';
import { cspNonce } from '@/lib/csp/nonce';

export const theme = createTheme({
  palette: {
    primary: { main: '#0b3d91', contrastText: '#ffffff' },
    secondary: { main: '#ffb300', contrastText: '#1a1a1a' },
    background: { default: '#f4f6fa', paper: '#ffffff' },
    text: { primary: '#1b2330', secondary: '#4a5568' },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiTextField: { defaultProps: { size: 'small', fullWidth: true } },
    MuiPaper: { styleOverrides: { rounded: { borderRadius: 12 } } },
    // The grid renders its CSS variables in a <style> of its own: it needs the page's CSP nonce.
    MuiDataGrid: { defaultProps: { nonce: cspNonce() } },
  },
});
