import Chip, { type ChipProps } from '@mui/material/Chip';

export const WARNING_SX = { bgcolor: '#fff4e5', color: '#663c00', borderColor: '#ffb74d' } as const;

/** Active / Inactive for records with an is_active flag. */
export function ActiveChip({ active, activeLabel = 'Active', inactiveLabel = 'Inactive' }: { active: boolean; activeLabel?: string; inactiveLabel?: string }) {
  return <Chip component="span" size="small" variant="outlined" label={active ? activeLabel : inactiveLabel} color={active ? 'success' : 'default'} />;
}

export interface StatusStyle {
  label: string;
  color: ChipProps['color'];
}

/** A status value shown with its label and colour (unknown values as they are). */
export function StatusChip({ value, styles }: { value: string; styles: Record<string, StatusStyle> }) {
  const s = styles[value] ?? { label: value, color: 'default' as const };
  // The warning palette's orange is too light for small text (WCAG AA): the warning Alert's colours instead.
  if (s.color === 'warning') return <Chip component="span" size="small" variant="outlined" label={s.label} sx={WARNING_SX} />;
  return <Chip component="span" size="small" variant="outlined" label={s.label} color={s.color} />;
}
