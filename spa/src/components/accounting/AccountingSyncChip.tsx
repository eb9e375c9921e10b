import Tooltip from '@mui/material/Tooltip';
import Box from '@mui/material/Box';
import { StatusChip, type StatusStyle } from '@/components/resource';

/** Where a record stands with the accounting service (customers, products, invoices, item map rows). */
export const SYNC_STATES: Record<string, StatusStyle> = {
  not_synced: { label: 'Not synced', color: 'default' },
  pending: { label: 'Pending', color: 'warning' },
  synced: { label: 'Synced', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
  conflict: { label: 'Conflict', color: 'error' },
};

/** The sync state as a chip; the last error, when there is one, on hover and for screen readers. */
export function AccountingSyncChip({ state, error }: { state: string; error?: string }) {
  const chip = <StatusChip value={state || 'not_synced'} styles={SYNC_STATES} />;
  if (!error) return chip;
  return (
    <Tooltip title={error}>
      <Box component="span" aria-label={`${SYNC_STATES[state]?.label ?? state}: ${error}`} sx={{ display: 'inline-flex' }}>
        {chip}
      </Box>
    </Tooltip>
  );
}
