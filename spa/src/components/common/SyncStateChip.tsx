import Tooltip from '@mui/material/Tooltip';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { StatusChip, type StatusStyle } from '@/components/resource';

/** Where a record stands with an outside service it is synced to (QuickBooks: customers, products,
 * invoices, item map rows). */
export const SYNC_STATES: Record<string, StatusStyle> = {
  not_synced: { label: 'Not synced', color: 'default' },
  pending: { label: 'Pending', color: 'warning' },
  synced: { label: 'Synced', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
  conflict: { label: 'Conflict', color: 'error' },
};

/** The sync state as a chip; the last error, when there is one, on hover and for screen readers, and
 * with `showError` also as visible text beside the chip (a record's own page: the reason it failed). */
export function SyncStateChip({ state, error, showError = false }: { state: string; error?: string; showError?: boolean }) {
  const chip = <StatusChip value={state || 'not_synced'} styles={SYNC_STATES} />;
  if (!error) return chip;
  const withTip = (
    <Tooltip title={error}>
      <Box component="span" aria-label={`${SYNC_STATES[state]?.label ?? state}: ${error}`} sx={{ display: 'inline-flex' }}>
        {chip}
      </Box>
    </Tooltip>
  );
  if (!showError) return withTip;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, flexWrap: 'wrap', minWidth: 0 }}>
      {withTip}
      <Typography component="span" variant="body2" color="error" data-testid="sync-error" sx={{ overflowWrap: 'anywhere' }}>
        {error}
      </Typography>
    </Box>
  );
}
