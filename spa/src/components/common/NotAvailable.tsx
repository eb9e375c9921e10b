import Construction from '@mui/icons-material/Construction';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { PageBody, PageHeader } from './PageHeader';

/** The honest notice for a page whose feature a later release builds. */
export function NotAvailable({ title }: { title: string }) {
  return (
    <PageBody>
      <PageHeader title={title} />
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center', maxWidth: 640, mx: 'auto' }} data-testid="not-available">
        <Construction sx={{ fontSize: 48, color: 'warning.dark' }} aria-hidden />
        <Typography component="h2" variant="h6" sx={{ fontWeight: 700, mt: 1 }}>
          {title} is not available yet
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          This part of FuelDesk is still being built and will appear here in a coming release. Nothing is lost by
          visiting it, and the rest of the menu works as usual.
        </Typography>
        <Button component={RouterLink} to="/" variant="contained" sx={{ mt: 3 }}>
          Go to the start page
        </Button>
      </Paper>
    </PageBody>
  );
}

export default NotAvailable;
