import Add from '@mui/icons-material/Add';
import ArrowBack from '@mui/icons-material/ArrowBack';
import DeleteOutline from '@mui/icons-material/Delete';
import WarningAmber from '@mui/icons-material/WarningAmber';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { PageSpinner } from '@/components/common/PageSpinner';
import { useCreateBillFromDocMutation, useParseChoicesQuery, useParsedDocQuery, useSaveReviewMutation, type ParsedDetail } from './billparseApi';
import { PageView, type Mark } from './PageView';
import { draftFromDetail, isLow, sumOf, toReviewIn, totalOf, totalsAgree as addsUp, type Draft, type Read } from './review';
import { StatusChip } from './UploadPanel';

const pct = (c: number) => `${Math.round(c * 100)}%`;

/** A text field that shows how sure the parser was; a low confidence is marked until edited. */
function ReadField({
  name,
  read,
  mark,
  edited,
  onFocusField,
  ...props
}: TextFieldProps & { name: string; read?: Read; mark: number; edited: boolean; onFocusField: (n: string) => void }) {
  const low = isLow(read, mark) && !edited;
  return (
    <TextField
      {...props}
      size="small"
      fullWidth
      color={low ? 'warning' : undefined}
      focused={low ? true : undefined}
      onFocus={() => onFocusField(name)}
      helperText={low ? `Check this: read with ${pct(read?.confidence ?? 0)} confidence` : read && read.confidence ? `Read with ${pct(read.confidence)} confidence` : props.helperText}
      slotProps={{
        htmlInput: { 'data-testid': `field-${name}`, 'data-low': low ? 'true' : 'false' },
        input: low ? { endAdornment: <WarningAmber color="warning" fontSize="small" /> } : undefined,
        formHelperText: { sx: low ? { color: 'warning.dark' } : undefined },
      }}
    />
  );
}

function ReviewForm({ detail }: { detail: ParsedDetail }) {
  const choices = useParseChoicesQuery();
  const [draft, setDraft] = useState<Draft>(() => draftFromDetail(detail));
  const [edited, setEdited] = useState<Set<string>>(new Set());
  const [focus, setFocus] = useState<string>('bill_number');
  const [page, setPage] = useState(1);
  const [save, saving] = useSaveReviewMutation();
  const [create, creating] = useCreateBillFromDocMutation();
  const [created, setCreated] = useState<{ id: number; message: string } | null>(null);
  const mark = detail.low_mark;
  const result = (detail.result ?? {}) as { pages?: number; page_sizes?: number[][] };
  const locked = detail.status !== 'parsed' || !!created;

  function set<K extends keyof Draft>(key: K, value: Draft[K]) {
    setDraft((d) => ({ ...d, [key]: value }));
    setEdited((e) => new Set(e).add(String(key)));
  }
  function setLine(i: number, key: string, value: string | number | null) {
    setDraft((d) => ({ ...d, lines: d.lines.map((ln, j) => (j === i ? { ...ln, [key]: value } : ln)) }));
    setEdited((e) => new Set(e).add(`line.${i}.${key}`));
  }
  function setTax(i: number, key: 'name' | 'amount', value: string) {
    setDraft((d) => ({ ...d, taxes: d.taxes.map((t, j) => (j === i ? { ...t, [key]: value } : t)) }));
    setEdited((e) => new Set(e).add(`tax.${i}.${key}`));
  }
  function focusField(name: string) {
    setFocus(name);
    const place = placeOf(name);
    if (place) setPage(place.page);
  }
  function placeOf(name: string) {
    const [kind, index, key] = name.split('.');
    if (kind === 'line') return draft.lines[Number(index)]?.read[key]?.place ?? null;
    if (kind === 'tax') return draft.taxes[Number(index)]?.read[key]?.place ?? null;
    const scalar: Record<string, string> = { supplier_id: 'supplier', terminal_id: 'terminal' };
    return draft.read[scalar[name] ?? name]?.place ?? null;
  }

  const marks = useMemo<Mark[]>(() => {
    const out: Mark[] = [];
    const add = (name: string, read: Read | undefined, label: string) => {
      if (read?.place) out.push({ place: read.place, low: isLow(read, mark) && !edited.has(name), focused: focus === name, label });
    };
    for (const [k, r] of Object.entries(draft.read)) add({ supplier: 'supplier_id', terminal: 'terminal_id' }[k] ?? k, r, k);
    draft.lines.forEach((ln, i) => Object.entries(ln.read).forEach(([k, r]) => add(`line.${i}.${k}`, r, `line ${i + 1} ${k}`)));
    draft.taxes.forEach((t, i) => Object.entries(t.read).forEach(([k, r]) => add(`tax.${i}.${k}`, r, `tax ${i + 1} ${k}`)));
    return out;
  }, [draft, mark, edited, focus]);

  const sum = sumOf(draft);
  const total = totalOf(draft);
  const totalsAgree = addsUp(draft);
  const usd = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
  const needsReason = !totalsAgree && !draft.override_reason.trim();
  const fieldProps = (name: string, read?: Read) => ({ name, read, mark, edited: edited.has(name), onFocusField: focusField, disabled: locked });
  const po = detail.suggested_purchase_order;
  // The suggested purchase order was matched on the SAVED review: once the form differs from it
  // (supplier, terminal, products, BOLs edited), send none and let the server match at create time.
  // (the override's reason is not part of what the purchase order is matched on)
  const matchKey = (d: Draft) => JSON.stringify({ ...toReviewIn(d), total_override_reason: '' });
  const saved = useMemo(() => matchKey(draftFromDetail(detail)), [detail]);
  const dirty = matchKey(draft) !== saved;

  async function onSave() {
    try {
      await save({ id: detail.id, body: toReviewIn(draft) }).unwrap();
      toast.success('Review saved');
    } catch (e) {
      toast.error((e as { message?: string }).message ?? 'The review could not be saved.');
    }
  }
  async function onCreate() {
    try {
      const res = await create({ id: detail.id, body: toReviewIn(draft, dirty ? null : (po?.id ?? null)) }).unwrap();
      const onPo = res.purchase_order_id == null ? '' : po && po.id === res.purchase_order_id ? ` on ${po.number}` : ' on its purchase order';
      const message = `Bill ${draft.bill_number} created${onPo}`;
      toast.success(message);
      setCreated({ id: res.bill_id, message });
    } catch (e) {
      toast.error((e as { message?: string }).message ?? 'The bill could not be created.');
    }
  }

  const options = choices.data;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 5fr) minmax(0, 6fr)' }, gap: 3, alignItems: 'start' }}>
      <Paper variant="outlined" sx={{ p: 2, position: { lg: 'sticky' }, top: { lg: 16 } }}>
        <PageView docId={detail.id} pages={result.pages ?? 1} sizes={result.page_sizes ?? []} page={page} onPage={setPage} marks={marks} />
      </Paper>
      <Box>
        {created && (
          <Alert severity="success" sx={{ mb: 2 }} action={<Button component={RouterLink} to={`/purchase-order/bills/${created.id}`} color="inherit" size="small">Open bill</Button>}>
            {created.message}
          </Alert>
        )}
        {detail.status === 'created' && !created && detail.bill_id && (
          <Alert severity="info" sx={{ mb: 2 }} action={<Button component={RouterLink} to={`/purchase-order/bills/${detail.bill_id}`} color="inherit" size="small">Open bill</Button>}>
            A bill was already created from this document.
          </Alert>
        )}
        {detail.layout_matched && (
          <Alert severity="success" variant="outlined" sx={{ mb: 2 }}>
            This supplier&apos;s layout was recognised from bills confirmed before.
          </Alert>
        )}
        {detail.low_confidence > 0 && !locked && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {detail.low_confidence} value{detail.low_confidence === 1 ? ' was' : 's were'} read with a low confidence: they are marked below and on the page.
          </Alert>
        )}
        <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 700, mb: 1.5 }}>
            Bill
          </Typography>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5 }}>
            <ReadField
              {...fieldProps('supplier_id', draft.read.supplier)}
              select
              label="Supplier"
              value={draft.supplier_id ?? ''}
              onChange={(e) => set('supplier_id', e.target.value === '' ? null : Number(e.target.value))}
            >
              <MenuItem value="">—</MenuItem>
              {(options?.suppliers ?? []).map((s) => (
                <MenuItem key={s.id} value={s.id}>
                  {s.name}
                </MenuItem>
              ))}
            </ReadField>
            <ReadField {...fieldProps('bill_number', draft.read.bill_number)} label="Bill number" value={draft.bill_number} onChange={(e) => set('bill_number', e.target.value)} />
            <ReadField {...fieldProps('bill_date', draft.read.bill_date)} label="Bill date" type="date" value={draft.bill_date} onChange={(e) => set('bill_date', e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
            <ReadField {...fieldProps('due_date', draft.read.due_date)} label="Due date" type="date" value={draft.due_date} onChange={(e) => set('due_date', e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
            <ReadField
              {...fieldProps('terminal_id', draft.read.terminal)}
              select
              label="Terminal"
              value={draft.terminal_id ?? ''}
              onChange={(e) => set('terminal_id', e.target.value === '' ? null : Number(e.target.value))}
            >
              <MenuItem value="">—</MenuItem>
              {(options?.terminals ?? []).map((t) => (
                <MenuItem key={t.id} value={t.id}>
                  {t.name}
                </MenuItem>
              ))}
            </ReadField>
            <ReadField {...fieldProps('bol_numbers', draft.read.bol_numbers)} label="BOL numbers" value={draft.bol_numbers} onChange={(e) => set('bol_numbers', e.target.value)} />
            <ReadField {...fieldProps('total', draft.read.total)} label="Total on the bill" value={draft.total} onChange={(e) => set('total', e.target.value)} />
            <Box sx={{ display: 'flex', alignItems: 'center' }}>
              <Typography variant="body2" color={totalsAgree ? 'success.main' : 'warning.dark'} data-testid="totals-check">
                Lines + taxes: {usd(sum)} {totalsAgree ? '= total' : '≠ total'}
              </Typography>
            </Box>
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }} data-testid="po-match">
            {dirty
              ? 'The purchase order will be matched on your edits when the bill is created.'
              : po
                ? `Matched to open purchase order ${po.number}.`
                : 'No open purchase order fits: the bill will be created without one.'}
          </Typography>
        </Paper>

        <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 700, mb: 1.5 }}>
            Lines
          </Typography>
          {draft.lines.map((ln, i) => (
            <Box key={i} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', md: '2.2fr 1fr 1fr 1fr 1.1fr auto', lg: '1fr 1fr', xl: '2.2fr 1fr 1fr 1fr 1.1fr auto' }, gap: 1, mb: 1.5, pb: 1.5, borderBottom: 1, borderColor: 'divider' }} data-testid="bill-line">
              <Box sx={{ gridColumn: { xs: '1 / -1', md: 'auto', lg: '1 / -1', xl: 'auto' } }}>
                <ReadField
                  {...fieldProps(`line.${i}.product`, ln.read.product)}
                  select
                  label={ln.description ? `Product (${ln.description})` : 'Product'}
                  value={ln.product_id ?? ''}
                  onChange={(e) => setLine(i, 'product_id', e.target.value === '' ? null : Number(e.target.value))}
                >
                  <MenuItem value="">—</MenuItem>
                  {(options?.products ?? []).map((p) => (
                    <MenuItem key={p.id} value={p.id}>
                      {p.name}
                    </MenuItem>
                  ))}
                </ReadField>
              </Box>
              <ReadField {...fieldProps(`line.${i}.gross`, ln.read.gross)} label="Gross gal" value={ln.gross} onChange={(e) => setLine(i, 'gross', e.target.value)} />
              <ReadField {...fieldProps(`line.${i}.net`, ln.read.net)} label="Net gal" value={ln.net} onChange={(e) => setLine(i, 'net', e.target.value)} />
              <ReadField {...fieldProps(`line.${i}.unit_price`, ln.read.unit_price)} label="Unit price" value={ln.unit_price} onChange={(e) => setLine(i, 'unit_price', e.target.value)} />
              <ReadField {...fieldProps(`line.${i}.amount`, ln.read.amount)} label="Amount" value={ln.amount} onChange={(e) => setLine(i, 'amount', e.target.value)} />
              <IconButton aria-label={`Remove line ${i + 1}`} disabled={locked} onClick={() => setDraft((d) => ({ ...d, lines: d.lines.filter((_, j) => j !== i) }))} sx={{ alignSelf: 'start' }}>
                <DeleteOutline />
              </IconButton>
            </Box>
          ))}
          <Button
            size="small"
            startIcon={<Add />}
            disabled={locked}
            onClick={() => setDraft((d) => ({ ...d, lines: [...d.lines, { product_id: null, description: '', gross: '', net: '', unit_price: '', amount: '', bol: '', read: {} }] }))}
          >
            Add line
          </Button>
        </Paper>

        <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 700, mb: 1.5 }}>
            Taxes and fees
          </Typography>
          {draft.taxes.map((t, i) => (
            <Box key={i} sx={{ display: 'grid', gridTemplateColumns: '2fr 1fr auto', gap: 1, mb: 1 }} data-testid="bill-tax">
              <ReadField {...fieldProps(`tax.${i}.name`, t.read.name)} label="Name" value={t.name} onChange={(e) => setTax(i, 'name', e.target.value)} />
              <ReadField {...fieldProps(`tax.${i}.amount`, t.read.amount)} label="Amount" value={t.amount} onChange={(e) => setTax(i, 'amount', e.target.value)} />
              <IconButton aria-label={`Remove tax ${i + 1}`} disabled={locked} onClick={() => setDraft((d) => ({ ...d, taxes: d.taxes.filter((_, j) => j !== i) }))} sx={{ alignSelf: 'start' }}>
                <DeleteOutline />
              </IconButton>
            </Box>
          ))}
          <Button size="small" startIcon={<Add />} disabled={locked} onClick={() => setDraft((d) => ({ ...d, taxes: [...d.taxes, { name: '', amount: '', read: {} }] }))}>
            Add tax or fee
          </Button>
        </Paper>

        {!totalsAgree && !locked && (
          <Alert severity="warning" sx={{ mb: 2 }} data-testid="totals-disagree">
            <Typography variant="body2" sx={{ mb: 1.5 }}>
              The lines and taxes come to <b>{usd(sum)}</b> but the bill&apos;s total is <b>{usd(total)}</b> (a difference of {usd(total - sum)}). Correct the lines or
              taxes so they add up, or create the bill anyway and say why: the reason is kept on the bill.
            </Typography>
            <TextField
              size="small"
              fullWidth
              multiline
              minRows={2}
              label="Reason for the difference"
              placeholder="e.g. the freight is billed on a separate invoice"
              value={draft.override_reason}
              onChange={(e) => setDraft((d) => ({ ...d, override_reason: e.target.value }))}
              slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'override-reason' } }}
              sx={{ bgcolor: 'background.paper' }}
            />
          </Alert>
        )}
        <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
          <Button variant="outlined" onClick={onSave} disabled={locked || saving.isLoading}>
            Save review
          </Button>
          <Button variant="contained" color={totalsAgree ? 'primary' : 'warning'} onClick={onCreate} disabled={locked || creating.isLoading || needsReason}>
            {totalsAgree ? 'Create bill' : 'Create bill anyway'}
          </Button>
        </Box>
      </Box>
    </Box>
  );
}

/** /invoice-parse/:id: the page beside the fields read from it; edit, then create the bill. */
export default function ReviewPage() {
  const { id } = useParams();
  const docId = Number(id);
  const q = useParsedDocQuery(docId, { skip: !Number.isInteger(docId) });
  const detail = q.data;
  return (
    <PageBody>
      <PageHeader
        title={detail ? `Review ${detail.file_name}` : 'Review invoice'}
        subtitle={detail?.supplier_name ?? 'Check what was read, correct it, and create the bill.'}
        actions={
          <>
            {detail && <StatusChip status={detail.status} />}
            <Button component={RouterLink} to="/invoice-parse" startIcon={<ArrowBack />}>
              All uploads
            </Button>
          </>
        }
      />
      {q.isLoading && <PageSpinner />}
      {q.isError && <Alert severity="error">This document could not be loaded.</Alert>}
      {detail && detail.status === 'failed' && <Alert severity="error">{detail.message}</Alert>}
      {detail && (detail.status === 'queued' || detail.status === 'parsing') && <Alert severity="info">This document is still being read. Come back in a moment.</Alert>}
      {detail && (detail.status === 'parsed' || detail.status === 'created') && <ReviewForm key={detail.id} detail={detail} />}
    </PageBody>
  );
}
