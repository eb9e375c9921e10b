import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { useAddReadingMutation, useSaveTankSettingsMutation, useWeatherZonesAllQuery, type TankForecast, type TankSettingsUpdate } from './forecastApi';
import { num, settingsBody } from './model';

const str = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));

function errorOf(e: unknown, fallback: string): string {
  return (e as { message?: string })?.message || fallback;
}

/** Program, usage model, max fill, reorder point (% or gallons) and weather zone. */
export function SettingsForm({ tank }: { tank: TankForecast }) {
  const s = tank.settings;
  const zones = useWeatherZonesAllQuery();
  const [save, saving] = useSaveTankSettingsMutation();
  const [program, setProgram] = useState(s.program as NonNullable<TankSettingsUpdate['program']>);
  const [model, setModel] = useState(s.usage_model as NonNullable<TankSettingsUpdate['usage_model']>);
  const [maxFill, setMaxFill] = useState(str(s.max_fill_percent));
  const [reorderUnit, setReorderUnit] = useState<'percent' | 'gallons'>(num(s.reorder_gallons) !== null && num(s.reorder_percent) === null ? 'gallons' : 'percent');
  const [reorder, setReorder] = useState(reorderUnit === 'gallons' ? str(s.reorder_gallons) : str(s.reorder_percent));
  const [zone, setZone] = useState(str(s.zone?.id));
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const body = settingsBody(s, {
      program,
      usage_model: model,
      max_fill_percent: maxFill.trim(),
      reorder_percent: reorderUnit === 'percent' ? reorder.trim() || null : null,
      reorder_gallons: reorderUnit === 'gallons' ? reorder.trim() || null : null,
      zone_id: zone ? Number(zone) : null,
    });
    try {
      await save({ assetId: tank.tank.id, body }).unwrap();
      toast.success('Tank settings saved');
    } catch (err) {
      setError(errorOf(err, 'The tank settings could not be saved.'));
    }
  };

  return (
    <Box component="form" onSubmit={submit} noValidate aria-label="Forecast settings" sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
      <TextField select label="Program" value={program} onChange={(e) => setProgram(e.target.value as typeof program)} helperText={program === 'keep_full' ? 'We plan the deliveries' : 'The customer calls'}>
        <MenuItem value="keep_full">Keep full</MenuItem>
        <MenuItem value="will_call">Will call</MenuItem>
      </TextField>
      <TextField select label="Usage model" value={model} onChange={(e) => setModel(e.target.value as typeof model)} helperText={model === 'weather' ? 'Heating: baseload + degree days / K' : 'Gallons a day, by weekday'}>
        <MenuItem value="weather">Weather (heating)</MenuItem>
        <MenuItem value="calendar">Calendar (diesel, generators)</MenuItem>
      </TextField>
      <TextField label="Max fill %" value={maxFill} onChange={(e) => setMaxFill(e.target.value)} slotProps={{ htmlInput: { inputMode: 'decimal' } }} helperText="e.g. 80 for propane" />
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
        <TextField label="Reorder point" value={reorder} onChange={(e) => setReorder(e.target.value)} slotProps={{ htmlInput: { inputMode: 'decimal' } }} sx={{ flex: 1 }} />
        <ToggleButtonGroup size="small" exclusive value={reorderUnit} onChange={(_, v: 'percent' | 'gallons' | null) => v && setReorderUnit(v)} aria-label="Reorder point unit" sx={{ mt: 0.75 }}>
          <ToggleButton value="percent">%</ToggleButton>
          <ToggleButton value="gallons">gal</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      <TextField select label="Weather zone" value={zone} onChange={(e) => setZone(e.target.value)} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }} helperText={zones.isError ? 'Weather zones could not be loaded' : 'Where its temperatures come from'}>
        <MenuItem value="">
          <em>None</em>
        </MenuItem>
        {(zones.data ?? []).map((z) => (
          <MenuItem key={z.id} value={String(z.id)}>
            {z.name}
          </MenuItem>
        ))}
      </TextField>
      {error && (
        <Alert severity="error" sx={{ gridColumn: '1 / -1' }}>
          {error}
        </Alert>
      )}
      <Box sx={{ gridColumn: '1 / -1' }}>
        <Button type="submit" variant="contained" disabled={saving.isLoading}>
          Save settings
        </Button>
      </Box>
    </Box>
  );
}

/** The office's override of the fitted usage (cleared to go back to the fit). */
export function OverrideForm({ tank }: { tank: TankForecast }) {
  const s = tank.settings;
  const weather = s.usage_model === 'weather';
  const [save, saving] = useSaveTankSettingsMutation();
  const [k, setK] = useState(str(s.k_factor_override));
  const [base, setBase] = useState(str(s.baseload_override));
  const [rate, setRate] = useState(str(s.daily_rate_override));
  const [error, setError] = useState<string | null>(null);
  const overridden = weather ? num(s.k_factor_override) !== null || num(s.baseload_override) !== null : num(s.daily_rate_override) !== null;

  const send = async (patch: Partial<TankSettingsUpdate>, done: string) => {
    setError(null);
    try {
      await save({ assetId: tank.tank.id, body: settingsBody(s, patch) }).unwrap();
      toast.success(done);
    } catch (err) {
      setError(errorOf(err, 'The override could not be saved.'));
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send(weather ? { k_factor_override: k.trim() || null, baseload_override: base.trim() || null } : { daily_rate_override: rate.trim() || null }, 'Override saved');
  };
  const clear = () => {
    setK('');
    setBase('');
    setRate('');
    void send({ k_factor_override: null, baseload_override: null, daily_rate_override: null }, 'Override cleared: the fit is used');
  };

  return (
    <Box component="form" onSubmit={submit} noValidate aria-label="Usage override">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Override
      </Typography>
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
        {weather ? (
          <>
            <TextField size="small" label="K-factor" value={k} onChange={(e) => setK(e.target.value)} slotProps={{ htmlInput: { inputMode: 'decimal' } }} sx={{ width: 140 }} />
            <TextField size="small" label="Baseload gal/day" value={base} onChange={(e) => setBase(e.target.value)} slotProps={{ htmlInput: { inputMode: 'decimal' } }} sx={{ width: 160 }} />
          </>
        ) : (
          <TextField size="small" label="Gallons per day" value={rate} onChange={(e) => setRate(e.target.value)} slotProps={{ htmlInput: { inputMode: 'decimal' } }} sx={{ width: 160 }} />
        )}
        <Button type="submit" variant="outlined" disabled={saving.isLoading}>
          Override
        </Button>
        {overridden && (
          <Button onClick={clear} disabled={saving.isLoading}>
            Use the fit
          </Button>
        )}
      </Box>
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}

function nowLocal(): string {
  const d = new Date();
  d.setSeconds(0, 0);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A reading taken now (or at a time typed), in gallons or %: it resets the projection. */
export function ReadingForm({ assetId, onSaved }: { assetId: number; onSaved?: () => void }) {
  const [add, adding] = useAddReadingMutation();
  const [unit, setUnit] = useState<'percent' | 'gallons'>('percent');
  const [value, setValue] = useState('');
  const [at, setAt] = useState(nowLocal);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!value.trim()) {
      setError('Enter the level.');
      return;
    }
    try {
      await add({ asset_id: assetId, taken_at: new Date(at).toISOString(), source: 'office', ...(unit === 'percent' ? { level_percent: value.trim() } : { level_gallons: value.trim() }) }).unwrap();
      toast.success('Reading saved: the projection starts from it');
      setValue('');
      onSaved?.();
    } catch (err) {
      setError(errorOf(err, 'The reading could not be saved.'));
    }
  };
  return (
    <Box component="form" onSubmit={submit} noValidate aria-label="Add a reading">
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <TextField size="small" label="Level" value={value} onChange={(e) => setValue(e.target.value)} slotProps={{ htmlInput: { inputMode: 'decimal' } }} sx={{ width: 110 }} />
        <ToggleButtonGroup size="small" exclusive value={unit} onChange={(_, v: 'percent' | 'gallons' | null) => v && setUnit(v)} aria-label="Reading unit">
          <ToggleButton value="percent">%</ToggleButton>
          <ToggleButton value="gallons">gal</ToggleButton>
        </ToggleButtonGroup>
        <TextField size="small" label="Taken at" type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} sx={{ width: 210 }} />
        <Button type="submit" variant="outlined" disabled={adding.isLoading}>
          Add reading
        </Button>
      </Box>
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}
