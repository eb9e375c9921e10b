import Chip from '@mui/material/Chip';
import { CLASSIFICATION_LABEL } from './inboxApi';

const CLASS_COLOR: Record<string, 'warning' | 'info' | 'default'> = { bill: 'warning', price_quote_reply: 'info', other: 'default' };

export function ClassChip({ value }: { value: string }) {
  return <Chip size="small" color={CLASS_COLOR[value] ?? 'default'} label={CLASSIFICATION_LABEL[value] ?? value} />;
}
