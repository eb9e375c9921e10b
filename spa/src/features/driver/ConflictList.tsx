import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { dismissConflict, type DriverConflict } from './queue';

const KIND = { start_delivery: 'Start of delivery', record_delivery: 'Delivery' } as const;

/** Actions the server did not apply: the driver reads why (the office sees them on the order). */
export function ConflictList({ conflicts }: { conflicts: DriverConflict[] }) {
  if (conflicts.length === 0) return null;
  return (
    <Stack spacing={1} sx={{ mb: 1.5 }} data-testid="driver-conflicts">
      {conflicts.map((c) => (
        <Alert
          key={c.client_action_id}
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void dismissConflict(c.client_action_id)} sx={{ minHeight: 44 }}>
              OK
            </Button>
          }
        >
          <AlertTitle>
            {KIND[c.kind]} of {c.order_number || `order ${c.order_id}`} not {c.outcome === 'conflict' ? 'applied (conflict)' : 'accepted'}
          </AlertTitle>
          {c.reason} The office has been told.
        </Alert>
      ))}
    </Stack>
  );
}
