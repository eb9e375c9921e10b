import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { WARNING_SX } from '@/components/resource';

export const EXPIRY_WARNING_DAYS = 30;

export function expiryText(date: string | null | undefined, days: number | null | undefined): string {
  if (!date || days === null || days === undefined) return '';
  if (days < 0) return `Expired ${-days} day${days === -1 ? '' : 's'} ago`;
  if (days === 0) return 'Expires today';
  if (days <= EXPIRY_WARNING_DAYS) return `Expires in ${days} day${days === 1 ? '' : 's'}`;
  return new Date(`${date}T00:00:00`).toLocaleDateString();
}

/** A licence or endorsement expiry: the date, or a warning chip when expired or within 30 days. */
export function ExpiryChip({ date, days, what }: { date: string | null | undefined; days: number | null | undefined; what: string }) {
  const text = expiryText(date, days);
  if (!text) return <span aria-label={`No ${what} expiry`}>—</span>;
  if (days === null || days === undefined || days > EXPIRY_WARNING_DAYS) return <span>{text}</span>;
  return (
    <Tooltip title={`${what}: ${new Date(`${date}T00:00:00`).toLocaleDateString()}`}>
      {days < 0 ? (
        <Chip size="small" color="error" label={text} />
      ) : (
        <Chip size="small" variant="outlined" label={text} sx={WARNING_SX} />
      )}
    </Tooltip>
  );
}
