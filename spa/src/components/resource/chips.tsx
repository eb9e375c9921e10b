import Chip, { type ChipProps } from '@mui/material/Chip';

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
  return <Chip component="span" size="small" variant="outlined" label={s.label} color={s.color} />;
}
