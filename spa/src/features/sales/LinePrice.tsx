import InfoOutlined from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { errorText, money, useExplainQuery, type OrderLine } from './salesApi';

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

export interface LinePriceProps {
  customerId: number | null;
  shipToId: number | null;
  productId: number | null;
  quantity: string;
  override: string;
  plannedDate: string;
  saved?: OrderLine;
}

/** A line's unit price and amount: the saved line's when it is fixed or unchanged, else the engine's
 * live answer (GET /customer-price/explain, with the typed price as `unit_price_override`) with its
 * explanation behind the info button. The server prices a typed price too: nothing is computed here. */
export function LinePrice(p: LinePriceProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const qtyNum = Number(p.quantity);
  const unchanged = !!p.saved && p.saved.product_id === p.productId && Number(p.saved.quantity) === qtyNum && (p.saved.unit_price_override ?? '') === (p.override ? Number(p.override).toFixed(4) : '');
  const useSaved = !!p.saved && (p.saved.price_fixed || unchanged);
  const override = p.override.trim();
  const overrideOk = override === '' || Number(override) >= 0;
  const key = useDebounced(`${p.productId}|${p.quantity}|${override}`, 400);
  const ready = !useSaved && !!p.customerId && !!p.productId && qtyNum > 0 && overrideOk && key === `${p.productId}|${p.quantity}|${override}`;
  const q = useExplainQuery(
    {
      customer_id: p.customerId ?? 0,
      product_id: p.productId ?? 0,
      quantity: qtyNum || 1,
      ship_to_id: p.shipToId ?? undefined,
      pricing_date: p.plannedDate || undefined,
      unit_price_override: override === '' ? undefined : override,
    },
    { skip: !ready },
  );
  let unit: string | null | undefined;
  let amount: string | null | undefined;
  let lines: string[] = [];
  let problem = '';
  if (useSaved && p.saved) {
    unit = p.saved.unit_price;
    amount = p.saved.amount;
    problem = p.saved.price_error;
    const bd = p.saved.price_breakdown as Record<string, unknown>;
    lines = Object.entries(bd)
      .filter(([k, v]) => k !== 'taxes' && v !== null && typeof v !== 'object')
      .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${String(v)}`);
  } else if (q.data) {
    unit = q.data.lines[0]?.unit_price;
    amount = q.data.lines[0]?.amount;
    lines = q.data.explanation;
  } else if (q.error) {
    problem = errorText(q.error);
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 150, justifyContent: 'flex-end' }}>
      <Box sx={{ textAlign: 'right' }}>
        <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid="line-unit-price">
          {q.isFetching ? '…' : unit ? `${Number(unit).toFixed(4)} /u` : '—'}
        </Typography>
        <Typography variant="caption" color={problem ? 'error' : 'text.secondary'}>
          {problem || (amount ? money(amount) : '')}
        </Typography>
      </Box>
      {lines.length > 0 && (
        <IconButton size="small" aria-label="How this price is made" onClick={(e) => setAnchor(e.currentTarget)}>
          <InfoOutlined fontSize="small" />
        </IconButton>
      )}
      <Popover open={!!anchor} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }} transformOrigin={{ vertical: 'top', horizontal: 'right' }}>
        <Box sx={{ p: 2, maxWidth: 380 }}>
          <Typography variant="subtitle2" sx={{ mb: 1 }}>
            How this price is made
          </Typography>
          {lines.map((l, i) => (
            <Typography key={i} variant="body2" sx={{ mb: 0.5 }}>
              {l}
            </Typography>
          ))}
        </Box>
      </Popover>
    </Box>
  );
}
