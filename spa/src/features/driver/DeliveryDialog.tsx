import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import * as SignatureModule from 'react-signature-canvas';
import type { Stop, StopLine } from './driverApi';
import { canvasPng, preparePhoto, type PhotoFile } from './photos';
import { enqueue } from './queue';

// react-signature-canvas is a UMD/CommonJS bundle: depending on the interop the component is the
// module's default or the default's default.
type SignaturePadClass = typeof SignatureModule.default;
type SignaturePad = InstanceType<SignaturePadClass>;
const signatureExports = SignatureModule as unknown as { default: SignaturePadClass | { default: SignaturePadClass } };
const SignatureCanvas: SignaturePadClass =
  'default' in signatureExports.default ? signatureExports.default.default : signatureExports.default;

interface LineEntry {
  delivered: string;
  meterStart: string;
  meterEnd: string;
  temperature: string;
  tank: string;
  levelBefore: string;
}

const NUMBER = /^\d+(\.\d{1,3})?$/;
const TEMP = /^-?\d+(\.\d{1,2})?$/;
const PERCENT = /^\d{1,3}(\.\d)?$/;

function initialLine(line: StopLine): LineEntry {
  return { delivered: String(Number(line.quantity)), meterStart: '', meterEnd: '', temperature: '', tank: line.tank ? String(line.tank.id) : '', levelBefore: '' };
}

function gross(e: LineEntry): string | null {
  if (!NUMBER.test(e.meterStart) || !NUMBER.test(e.meterEnd)) return null;
  const g = Number(e.meterEnd) - Number(e.meterStart);
  return g >= 0 ? String(Math.round(g * 1000) / 1000) : null;
}

function lineProblem(e: LineEntry): string | null {
  if (!NUMBER.test(e.delivered)) return 'Enter the delivered quantity (0 if none).';
  if ((e.meterStart || e.meterEnd) && gross(e) === null) return 'Meter end must be a number at or above meter start.';
  if (e.temperature && !TEMP.test(e.temperature)) return 'Temperature: a number in °F.';
  if (e.levelBefore && (!PERCENT.test(e.levelBefore) || Number(e.levelBefore) > 100)) return 'Level before: the gauge in %, 0 to 100.';
  return null;
}

export interface DeliveryDialogProps {
  stop: Stop;
  onClose: () => void;
  onQueued: () => void;
}

/** Full-screen delivery form: per line quantities, meters, temperature and tank; the signer, the
 * signature on the glass and photos. Finish queues it (works offline) and closes. */
export function DeliveryDialog({ stop, onClose, onQueued }: DeliveryDialogProps) {
  const [lines, setLines] = useState<Record<number, LineEntry>>(() => Object.fromEntries(stop.lines.map((l) => [l.id, initialLine(l)])));
  const [signer, setSigner] = useState('');
  const [signed, setSigned] = useState(false);
  const [photos, setPhotos] = useState<PhotoFile[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [position, setPosition] = useState<{ lat: number; lng: number } | null>(null);
  const [asked, setAsked] = useState(false);
  const sig = useRef<SignaturePad | null>(null);
  const width = typeof window === 'undefined' ? 320 : Math.max(260, Math.min(window.innerWidth - 64, 560));

  if (!asked) {
    setAsked(true);
    if (typeof navigator !== 'undefined' && navigator.geolocation) {
      navigator.geolocation.getCurrentPosition(
        (p) => setPosition({ lat: p.coords.latitude, lng: p.coords.longitude }),
        () => undefined,
        { timeout: 8000, maximumAge: 60_000 },
      );
    }
  }

  const setLine = (id: number, patch: Partial<LineEntry>) =>
    setLines((prev) => {
      const next = { ...prev[id], ...patch };
      if (('meterStart' in patch || 'meterEnd' in patch) && gross(next) !== null) next.delivered = gross(next) ?? next.delivered;
      return { ...prev, [id]: next };
    });

  const addPhotos = async (files: FileList | null) => {
    if (!files) return;
    const prepared = await Promise.all(Array.from(files).map(preparePhoto));
    setPhotos((prev) => [...prev, ...prepared].slice(0, 10));
  };

  const finish = async () => {
    const problems = stop.lines.map((l) => lineProblem(lines[l.id])).filter(Boolean);
    if (problems.length) return setError(problems[0]);
    if (!signer.trim()) return setError("Enter the name of the person who signs.");
    const canvas = sig.current?.getCanvas();
    if (!canvas || !signed || sig.current?.isEmpty()) return setError('The customer must sign in the box.');
    setSaving(true);
    setError(null);
    try {
      const signature = await canvasPng(canvas);
      const takenAt = new Date().toISOString();
      await enqueue(
        {
          kind: 'record_delivery',
          order_id: stop.id,
          order_number: stop.number,
          order_version: stop.version,
          taken_at: takenAt,
          payload: {
            lines: stop.lines.map((l) => {
              const e = lines[l.id];
              return {
                line_item_id: l.id,
                delivered_quantity: e.delivered,
                gross_volume: gross(e),
                meter_start: e.meterStart || null,
                meter_end: e.meterEnd || null,
                temperature_f: e.temperature || null,
                tank: e.tank ? Number(e.tank) : null,
                level_before_percent: e.tank && e.levelBefore ? e.levelBefore : null,
              };
            }),
            signer_name: signer.trim(),
            latitude: position ? position.lat.toFixed(6) : null,
            longitude: position ? position.lng.toFixed(6) : null,
            delivered_at: takenAt,
          },
        },
        [{ role: 'signature', bytes: signature, type: 'image/png', name: 'signature.png' }, ...photos.map((p) => ({ role: 'photo' as const, ...p }))],
      );
      onQueued();
    } catch (err) {
      setError((err as Error)?.message || 'The delivery could not be saved on this phone.');
      setSaving(false);
    }
  };

  return (
    <Dialog open fullScreen onClose={onClose} aria-labelledby="delivery-title">
      <DialogTitle id="delivery-title" sx={{ pb: 1 }}>
        Deliver {stop.number} — {stop.customer_name}
      </DialogTitle>
      <DialogContent dividers sx={{ px: { xs: 1.5, sm: 3 } }}>
        <Stack spacing={2}>
          {stop.lines.map((l) => {
            const e = lines[l.id];
            const g = gross(e);
            return (
              <Paper key={l.id} variant="outlined" sx={{ p: 1.5 }} data-testid={`line-${l.id}`}>
                <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
                  {l.product_name}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                  Ordered {Number(l.quantity).toLocaleString()} {l.unit}
                </Typography>
                <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 1.25 }}>
                  {l.is_fuel && (
                    <>
                      <TextField label="Meter start" inputMode="decimal" value={e.meterStart} onChange={(ev) => setLine(l.id, { meterStart: ev.target.value.trim() })} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
                      <TextField label="Meter end" value={e.meterEnd} onChange={(ev) => setLine(l.id, { meterEnd: ev.target.value.trim() })} slotProps={{ htmlInput: { inputMode: 'decimal' } }} helperText={g !== null ? `Gross ${g} ${l.unit}` : ' '} />
                      <TextField label="Temperature °F" value={e.temperature} onChange={(ev) => setLine(l.id, { temperature: ev.target.value.trim() })} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
                    </>
                  )}
                  <TextField
                    label={`Delivered (${l.unit})`}
                    value={e.delivered}
                    required
                    onChange={(ev) => setLine(l.id, { delivered: ev.target.value.trim() })}
                    slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': `delivered-${l.id}` } }}
                  />
                  {stop.tanks.length > 0 && (
                    <TextField select label="Tank" value={e.tank} onChange={(ev) => setLine(l.id, { tank: ev.target.value })} sx={{ gridColumn: '1 / -1' }}>
                      <MenuItem value="">No tank</MenuItem>
                      {stop.tanks.map((t) => (
                        <MenuItem key={t.id} value={String(t.id)}>
                          {t.name}
                          {t.product ? ` (${t.product})` : ''}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                  {stop.tanks.length > 0 && e.tank && (
                    <TextField
                      label="Level before (%)"
                      value={e.levelBefore}
                      onChange={(ev) => setLine(l.id, { levelBefore: ev.target.value.trim() })}
                      helperText="The tank's gauge before filling"
                      slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': `level-before-${l.id}` } }}
                      sx={{ gridColumn: '1 / -1' }}
                    />
                  )}
                </Box>
              </Paper>
            );
          })}
          <TextField label="Signer's name" value={signer} onChange={(e) => setSigner(e.target.value)} required autoComplete="name" />
          <Box>
            <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 0.5 }}>
              <Typography variant="subtitle2" id="signature-label">
                Customer signature
              </Typography>
              <Button
                size="small"
                onClick={() => {
                  sig.current?.clear();
                  setSigned(false);
                }}
                sx={{ minHeight: 44 }}
              >
                Clear
              </Button>
            </Box>
            <Box sx={{ border: 2, borderColor: signed ? 'primary.main' : 'divider', borderRadius: 1, bgcolor: '#fff', width, maxWidth: '100%', touchAction: 'none' }}>
              <SignatureCanvas
                ref={sig}
                clearOnResize={false}
                penColor="#0b1f44"
                onEnd={() => setSigned(true)}
                canvasProps={{ width, height: 200, 'aria-labelledby': 'signature-label', role: 'img', 'data-testid': 'signature-pad', style: { display: 'block' } }}
              />
            </Box>
          </Box>
          <Box>
            <Button variant="outlined" component="label" sx={{ minHeight: 48 }}>
              Add photo
              <input hidden type="file" accept="image/*" capture="environment" multiple data-testid="photo-input" onChange={(e) => void addPhotos(e.target.files)} />
            </Button>
            <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="photo-count">
              {photos.length === 0 ? 'No photo yet' : `${photos.length} photo${photos.length > 1 ? 's' : ''} attached`}
            </Typography>
          </Box>
          {position && (
            <Typography variant="caption" color="text.secondary">
              Position recorded ({position.lat.toFixed(4)}, {position.lng.toFixed(4)})
            </Typography>
          )}
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ p: 1.5, gap: 1 }}>
        <Button onClick={onClose} sx={{ minHeight: 48, flex: 1 }} disabled={saving}>
          Cancel
        </Button>
        <Button variant="contained" color="success" onClick={() => void finish()} sx={{ minHeight: 48, flex: 2 }} disabled={saving}>
          Finish delivery
        </Button>
      </DialogActions>
    </Dialog>
  );
}
