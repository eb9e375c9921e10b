import Insights from '@mui/icons-material/Insights';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { PageBody, PageHeader } from '@/components/common/PageHeader';

const NEXT_STEPS = [
  { to: '/company-settings', title: 'Company settings', text: 'Add your company’s address, contact details and logo. They appear on your documents and in the menu.' },
  { to: '/user-management', title: 'Invite your team', text: 'Create logins for office staff and drivers and give each the role that fits.' },
  { to: '/role-management', title: 'Roles & permissions', text: 'Decide what each role can see and change, screen by screen.' },
];

export default function DashboardPage() {
  const profile = useAppSelector((s) => s.session.profile ?? s.login.user);
  const settings = useAppSelector((s) => s.session.settings);
  const firstName = profile?.name?.split(' ')[0];
  const company = settings?.company_name || profile?.tenant?.name;

  return (
    <PageBody>
      <PageHeader
        title="Dashboard"
        subtitle={firstName ? `Welcome${company ? ` to ${company}` : ''}, ${firstName}.` : 'Welcome to FuelDesk.'}
      />
      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, md: 7 }}>
          <Card variant="outlined" sx={{ height: '100%' }} data-testid="product-summary-placeholder">
            <CardContent sx={{ p: 3 }}>
              <Insights color="primary" sx={{ fontSize: 36 }} aria-hidden />
              <Typography component="h2" variant="h6" sx={{ fontWeight: 700, mt: 1 }}>
                Product summary
              </Typography>
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                The summary of products sold and delivered over the last 7 days appears here once sales orders are in
                use. That part of FuelDesk arrives with the sales release; until then there is nothing to summarise, so
                this card stays empty rather than showing made-up figures.
              </Typography>
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Card variant="outlined" sx={{ height: '100%' }}>
            <CardContent sx={{ p: 3 }}>
              <Typography component="h2" variant="h6" sx={{ fontWeight: 700 }}>
                Get set up
              </Typography>
              {NEXT_STEPS.map((s) => (
                <div key={s.to}>
                  <Typography variant="subtitle2" sx={{ fontWeight: 700, mt: 2 }}>
                    {s.title}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {s.text}
                  </Typography>
                  <Button component={RouterLink} to={s.to} size="small" sx={{ mt: 0.5, px: 0 }}>
                    Open {s.title.toLowerCase()}
                  </Button>
                </div>
              ))}
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </PageBody>
  );
}
