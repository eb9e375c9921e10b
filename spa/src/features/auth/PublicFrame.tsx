import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { BrandMark } from '@/components/shell/BrandMark';

/** The frame of the signed-out pages: a brand panel beside a card (stacked on phones). */
export default function PublicFrame({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: { xs: 'column', md: 'row' }, bgcolor: 'background.default' }}>
      <Box
        component="aside"
        sx={{
          flex: { md: '0 0 40%' }, maxWidth: { md: 520 }, bgcolor: '#0b3d91',
          background: 'linear-gradient(160deg, #0b3d91 0%, #0d1b2a 100%)', color: '#fff',
          p: { xs: 3, md: 6 }, display: 'flex', flexDirection: 'column', gap: 2, justifyContent: { md: 'center' },
        }}
      >
        <Box component={RouterLink} to="/" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, color: 'inherit', textDecoration: 'none' }}>
          <BrandMark size={44} />
          <Typography component="span" variant="h5" sx={{ fontWeight: 800 }}>
            FuelDesk
          </Typography>
        </Box>
        <Typography component="p" variant="h6" sx={{ display: { xs: 'none', md: 'block' }, fontWeight: 500, opacity: 0.95 }}>
          The back office for fuel and goods distributors: orders, deliveries, invoices, pricing and your fleet in one
          place.
        </Typography>
        <Box component="ul" sx={{ display: { xs: 'none', md: 'block' }, m: 0, pl: 2.5, opacity: 0.9, lineHeight: 1.9 }}>
          <li>Sales orders through delivery tickets to invoices</li>
          <li>Supplier prices, bills and terminals</li>
          <li>Dispatch, drivers and trucks</li>
        </Box>
      </Box>
      <Box component="main" sx={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', p: { xs: 2, sm: 4 } }}>
        <Paper variant="outlined" sx={{ width: '100%', maxWidth: wide ? 820 : 440, p: { xs: 2.5, sm: 4 } }}>
          {children}
        </Paper>
        <Box component="footer" sx={{ mt: 3, display: 'flex', gap: 2, flexWrap: 'wrap', justifyContent: 'center' }}>
          <Link component={RouterLink} to="/about-us" variant="body2">About</Link>
          <Link component={RouterLink} to="/eula" variant="body2">Licence agreement</Link>
          <Link component={RouterLink} to="/privacy-policy" variant="body2">Privacy</Link>
        </Box>
      </Box>
    </Box>
  );
}
