import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import Refresh from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { Link as RouterLink } from 'react-router-dom';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { WARNING_SX } from '@/components/resource';
import { isApiError } from '@/lib/api/errors';
import { useOnboardingQuery, type OnboardingStep } from './onboardingApi';

const STATE_LABEL: Record<OnboardingStep['state'], string> = { done: 'Done', todo: 'To do', attention: 'Needs attention' };
const ACTION_LABEL: Record<OnboardingStep['state'], string> = { done: 'Open', todo: 'Set up', attention: 'Fix' };

function StateIcon({ state }: { state: OnboardingStep['state'] }) {
  const common = { titleAccess: STATE_LABEL[state], sx: { fontSize: 28, flexShrink: 0 } } as const;
  if (state === 'done') return <CheckCircle color="success" {...common} />;
  if (state === 'attention') return <ErrorOutline color="warning" {...common} />;
  return <RadioButtonUnchecked color="disabled" {...common} />;
}

function StepRow({ step, index }: { step: OnboardingStep; index: number }) {
  const done = step.state === 'done';
  return (
    <Box
      component="li"
      data-testid={`step-${step.key}`}
      data-state={step.state}
      sx={{
        display: 'flex',
        alignItems: { xs: 'flex-start', sm: 'center' },
        gap: 2,
        px: { xs: 2, sm: 2.5 },
        py: 2,
        borderTop: index === 0 ? 0 : 1,
        borderColor: 'divider',
        bgcolor: step.state === 'attention' ? (t) => alpha(t.palette.warning.main, 0.06) : undefined,
      }}
    >
      <StateIcon state={step.state} />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, color: done ? 'text.secondary' : 'text.primary' }}>
          {step.title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {step.description}
        </Typography>
        {step.detail && (
          <Typography
            variant="body2"
            data-testid="step-detail"
            sx={{ mt: 0.5, fontWeight: 500, color: step.state === 'attention' ? WARNING_SX.color : 'text.primary' }}
          >
            {step.detail}
          </Typography>
        )}
        <Box sx={{ display: { xs: 'block', sm: 'none' }, mt: 1.25, ml: step.state === 'done' ? -0.75 : 0 }}>
          <StepButton step={step} />
        </Box>
      </Box>
      <Box sx={{ display: { xs: 'none', sm: 'block' }, flexShrink: 0 }}>
        <StepButton step={step} />
      </Box>
    </Box>
  );
}

function StepButton({ step }: { step: OnboardingStep }) {
  return (
    <Button
      component={RouterLink}
      to={step.link}
      size="small"
      variant={step.state === 'done' ? 'text' : 'contained'}
      // MUI's orange is too light for white text (WCAG AA): the warning Alert's dark brown instead.
      sx={step.state === 'attention' ? { bgcolor: WARNING_SX.color, '&:hover': { bgcolor: '#4d2d00' } } : undefined}
      aria-label={`${ACTION_LABEL[step.state]}: ${step.title}`}
    >
      {ACTION_LABEL[step.state]}
    </Button>
  );
}

export default function OnboardingPage() {
  const { data, error, isLoading, isFetching, refetch } = useOnboardingQuery(undefined, {
    refetchOnFocus: true,
    refetchOnMountOrArgChange: true,
  });
  const percent = data && data.total > 0 ? Math.round((data.done / data.total) * 100) : 0;
  const attention = data?.steps.filter((s) => s.state === 'attention').length ?? 0;

  return (
    <PageBody>
      <PageHeader
        title="Onboarding"
        subtitle="Set up your company step by step. Each step is checked against your data and updates as you go."
        actions={
          <Button startIcon={<Refresh />} onClick={() => void refetch()} disabled={isFetching} variant="outlined" size="small">
            Refresh
          </Button>
        }
      />
      {error && !data && (
        <Alert severity="error" action={<Button onClick={() => void refetch()}>Retry</Button>} sx={{ mb: 2 }}>
          {isApiError(error) ? error.message : 'Failed to load the onboarding checklist'}
        </Alert>
      )}
      {isLoading && (
        <Stack spacing={1.5} aria-busy="true">
          <Skeleton variant="rounded" height={88} />
          <Skeleton variant="rounded" height={360} />
        </Stack>
      )}
      {data && (
        <>
          <Card variant="outlined" sx={{ mb: 2 }}>
            <CardContent sx={{ p: { xs: 2, sm: 2.5 }, '&:last-child': { pb: { xs: 2, sm: 2.5 } } }}>
              <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, flexWrap: 'wrap', mb: 1 }}>
                <Typography variant="h6" component="p" sx={{ fontWeight: 700 }} data-testid="onboarding-progress">
                  {data.done} of {data.total} steps done
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {percent}%
                </Typography>
                {attention > 0 && <Chip size="small" variant="outlined" sx={WARNING_SX} label={`${attention} need${attention === 1 ? 's' : ''} attention`} />}
                {data.total > 0 && data.done === data.total && <Chip size="small" color="success" label="All set" />}
              </Box>
              <LinearProgress
                variant="determinate"
                value={percent}
                aria-label="Onboarding progress"
                color={data.done === data.total ? 'success' : 'primary'}
                sx={{ height: 8, borderRadius: 4 }}
              />
            </CardContent>
          </Card>
          <Card variant="outlined">
            {data.steps.length === 0 ? (
              <CardContent>
                <Typography color="text.secondary">No setup steps for your company.</Typography>
              </CardContent>
            ) : (
              <Box component="ol" aria-label="Setup steps" sx={{ listStyle: 'none', m: 0, p: 0 }}>
                {data.steps.map((step, i) => (
                  <StepRow key={step.key} step={step} index={i} />
                ))}
              </Box>
            )}
          </Card>
        </>
      )}
    </PageBody>
  );
}
