import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { SiteConstraintsList } from '@/components/routing/SiteConstraintsList';
import { ResourceListPage, type ColumnDef, type FieldDef, type OptionsState } from '@/components/resource';
import { FormField } from '@/components/resource/FormFields';
import { validateValues } from '@/components/resource/validation';
import { isApiError } from '@/lib/api/errors';
import { useDriverOptions, usePermissions, useProductOptions, useYardOptions } from '@/lib/api/lookups';
import { driverShiftApi, truckRoutingApi, useRoutingSettingsQuery, useSaveRoutingSettingsMutation, useTrucksQuery, type DriverShift, type DriverShiftCreate, type DriverShiftUpdate, type RoutingSettings, type RoutingSettingsBody, type TruckRouting, type TruckRoutingCreate, type TruckRoutingUpdate } from './routingApi';

const errorText = (e: unknown) => (isApiError(e) ? e.message : 'Something went wrong.');
const url = { regex: /^(https?:\/\/\S+)?$/, message: 'Enter an http(s) address, or leave it empty' };

type SettingsForm = Omit<RoutingSettingsBody, 'circuity' | 'speed_mph' | 'pump_gpm' | 'max_duty_hours' | 'default_cost_per_mile' | 'default_cost_per_hour' | 'keep_full_value_per_gallon'> & {
  keep_full_value_per_gallon: number | null;
  circuity: number | null;
  speed_mph: number | null;
  pump_gpm: number | null;
  max_duty_hours: number | null;
  default_cost_per_mile: number | null;
  default_cost_per_hour: number | null;
};

const settingsFields: FieldDef<SettingsForm>[] = [
  { name: 'circuity', label: 'Circuity factor', type: 'number', required: true, min: 1, max: 3, step: 0.01, width: 4, section: 'Distances and times', helperText: 'Road miles per straight-line mile' },
  { name: 'speed_mph', label: 'Average speed (mph)', type: 'number', required: true, min: 5, max: 90, step: 0.1, width: 4 },
  { name: 'osrm_url', label: 'OSRM server', width: 4, maxLength: 300, pattern: url, placeholder: 'https://osrm.example.com', helperText: 'Road distances; empty: straight line × circuity' },
  { name: 'service_fixed_minutes', label: 'Fixed time per stop (min)', type: 'number', required: true, min: 0, max: 600, step: 1, width: 4, section: 'Stops' },
  { name: 'pump_gpm', label: 'Pump rate (gal/min)', type: 'number', required: true, min: 1, max: 2000, step: 0.1, width: 4 },
  { name: 'default_seconds', label: 'Default time budget (s)', type: 'number', required: true, min: 1, max: 600, step: 1, width: 4 },
  { name: 'hours_of_service', label: 'Hours of service', type: 'select', required: true, width: 4, section: 'Drivers and costs', options: [{ value: 'us_property', label: 'US property-carrying (14 h on duty)' }, { value: 'custom', label: 'Our own limit' }, { value: 'none', label: 'No limit but the shift' }] },
  { name: 'max_duty_hours', label: 'Max on-duty hours', type: 'number', required: true, min: 1, max: 24, step: 0.25, width: 4, disabled: (_m, v) => v.hours_of_service !== 'custom', helperText: 'Used with "Our own limit"' },
  { name: 'default_cost_per_mile', label: 'Cost per mile ($)', type: 'number', required: true, min: 0, step: 0.01, width: 4 },
  { name: 'default_cost_per_hour', label: 'Cost per hour ($)', type: 'number', required: true, min: 0, step: 0.01, width: 4 },
  { name: 'keep_full_stops', label: 'Offer due keep-full tanks as optional stops', type: 'switch', width: 4, section: 'Keep-full top-ups', helperText: 'Taken when the detour costs less than they are worth' },
  { name: 'keep_full_days', label: 'Look-ahead (days)', type: 'number', required: true, min: 0, max: 14, step: 1, width: 4, disabled: (_m, v) => !v.keep_full_stops, helperText: 'Tanks due up to this many days after the day' },
  { name: 'keep_full_value_per_gallon', label: 'Worth per gallon ($)', type: 'number', required: true, min: 0, max: 10, step: 0.01, width: 4, disabled: (_m, v) => !v.keep_full_stops, helperText: 'x (1 + risk) x up to 2 when due' },
  { name: 'map_style_url', label: 'Map style URL (MapLibre)', width: 6, maxLength: 500, pattern: url, section: 'Map', helperText: 'Empty with no tile URL: the plain drawing' },
  { name: 'map_tile_url', label: 'Raster tile URL', width: 6, maxLength: 500, pattern: url, placeholder: 'https://tiles.example.com/{z}/{x}/{y}.png' },
  { name: 'map_attribution', label: 'Map attribution', width: 12, maxLength: 300 },
];

/** Where a map may be: the server's CSP names these sites besides this one (a URL elsewhere is refused on save). */
const mapSitesHelp = (sites: readonly string[]) =>
  sites.length ? `Allowed sites: this one, ${sites.join(', ')}` : "Allowed: this site only (your FuelDesk operator can allow a map's site)";

/** The fields with what depends on the server: the map sites it allows. */
const fieldsFor = (s: RoutingSettings): FieldDef<SettingsForm>[] =>
  settingsFields.map((f) => (f.name === 'map_tile_url' ? { ...f, helperText: mapSitesHelp(s.map_allowed_sites) } : f));

const toForm = (s: RoutingSettings): SettingsForm => ({
  circuity: Number(s.circuity), speed_mph: Number(s.speed_mph), osrm_url: s.osrm_url, map_tile_url: s.map_tile_url, map_style_url: s.map_style_url,
  map_attribution: s.map_attribution, service_fixed_minutes: s.service_fixed_minutes, pump_gpm: Number(s.pump_gpm), hours_of_service: s.hours_of_service as SettingsForm['hours_of_service'],
  max_duty_hours: Number(s.max_duty_hours), default_cost_per_mile: Number(s.default_cost_per_mile), default_cost_per_hour: Number(s.default_cost_per_hour), default_seconds: s.default_seconds,
  keep_full_stops: s.keep_full_stops ?? true, keep_full_days: s.keep_full_days ?? 3, keep_full_value_per_gallon: Number(s.keep_full_value_per_gallon ?? 0.15),
});

function SettingsSection() {
  const q = useRoutingSettingsQuery();
  const [save, saving] = useSaveRoutingSettingsMutation();
  const perms = usePermissions('routing_settings');
  const [edits, setEdits] = useState<Partial<SettingsForm>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  if (q.error) return <Alert severity="error">{errorText(q.error)}</Alert>;
  if (!q.data) return <CircularProgress aria-label="Loading the routing settings" />;
  const values: SettingsForm = { ...toForm(q.data), ...edits };
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateValues(settingsFields, values, 'edit');
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      await save({ ...values, circuity: values.circuity ?? 1.3, speed_mph: values.speed_mph ?? 35, pump_gpm: values.pump_gpm ?? 60, max_duty_hours: values.max_duty_hours ?? 14, default_cost_per_mile: values.default_cost_per_mile ?? 0, default_cost_per_hour: values.default_cost_per_hour ?? 0, keep_full_value_per_gallon: values.keep_full_value_per_gallon ?? 0.15 }).unwrap();
      setEdits({});
      toast.success('Routing settings saved');
    } catch (err) {
      // A field the server refused (e.g. a map URL the page's security policy would block) is shown on it too.
      if (isApiError(err) && err.fieldErrors) setErrors(err.fieldErrors);
      toast.error(errorText(err));
    }
  };
  return (
    <Paper variant="outlined" component="form" onSubmit={onSubmit} noValidate sx={{ p: 2 }} aria-label="Routing settings">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography component="h2" variant="h6" sx={{ flex: 1 }}>
          Planner settings
        </Typography>
        {!q.data?.saved && <Chip size="small" label="Defaults (never saved)" />}
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(12, 1fr)' }, columnGap: 2, rowGap: 2 }}>
        {fieldsFor(q.data).map((f) => (
          <Box key={f.name} sx={{ gridColumn: { xs: '1 / -1', sm: `span ${f.width ?? 12}` } }}>
            {f.section && (
              <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 1 }}>
                {f.section}
              </Typography>
            )}
            <FormField field={f} values={values} mode="edit" error={errors[f.name]} disabled={saving.isLoading || !perms.change} onChange={(name, v) => setEdits((old) => ({ ...old, [name]: v }))} />
          </Box>
        ))}
      </Box>
      {perms.change && (
        <Box sx={{ mt: 2, display: 'flex', justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" disabled={saving.isLoading}>
            Save settings
          </Button>
        </Box>
      )}
    </Paper>
  );
}

function useTruckOptions(): OptionsState {
  const q = useTrucksQuery();
  return { options: (q.data ?? []).filter((t) => t.is_active && t.compartments.length > 0).map((t) => ({ value: t.id, label: `${t.asset_number} · ${t.name}` })), loading: q.isLoading, error: q.error ? errorText(q.error) : null };
}

interface TruckForm {
  truck_id: number | null;
  product_ids: number[];
  cost_per_mile: number | null;
  cost_per_hour: number | null;
  skills: string;
  start_yard_id: number | null;
  end_yard_id: number | null;
  plans: boolean;
}
const skillsOf = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean);
const truckBody = (v: TruckForm) => ({ truck_id: v.truck_id!, product_ids: v.product_ids, cost_per_mile: v.cost_per_mile, cost_per_hour: v.cost_per_hour, skills: skillsOf(v.skills), start_yard_id: v.start_yard_id, end_yard_id: v.end_yard_id, plans: v.plans }) as unknown as TruckRoutingCreate;
const truckFields: FieldDef<TruckForm>[] = [
  { name: 'truck_id', label: 'Truck', type: 'select', required: true, width: 6, useOptions: useTruckOptions },
  { name: 'plans', label: 'The planner may use it', type: 'switch', width: 6 },
  { name: 'product_ids', label: 'Products it may carry', type: 'multiselect', width: 12, useOptions: () => useProductOptions(), helperText: 'None chosen: every fuel' },
  { name: 'cost_per_mile', label: 'Cost per mile ($)', type: 'number', min: 0, step: 0.01, width: 6, helperText: 'Empty: the settings\' cost' },
  { name: 'cost_per_hour', label: 'Cost per hour ($)', type: 'number', min: 0, step: 0.01, width: 6 },
  { name: 'skills', label: 'Skills', width: 12, maxLength: 400, helperText: 'Comma-separated, e.g. long hose, pump' },
  { name: 'start_yard_id', label: 'Starts at yard', type: 'select', width: 6, useOptions: () => useYardOptions(), helperText: 'Empty: its home yard' },
  { name: 'end_yard_id', label: 'Ends at yard', type: 'select', width: 6, useOptions: () => useYardOptions() },
];
const truckColumns: ColumnDef<TruckRouting>[] = [
  { field: 'truck_number', headerName: 'Truck', sortField: 'truck_number', minWidth: 110 },
  { field: 'plans', headerName: 'Planned', width: 100, value: (t) => (t.plans ? 'Yes' : 'No') },
  { field: 'product_ids', headerName: 'Products', width: 120, hideOnPhone: true, value: (t) => (t.product_ids.length ? `${t.product_ids.length} product${t.product_ids.length === 1 ? '' : 's'}` : 'Every fuel') },
  { field: 'skills', headerName: 'Skills', minWidth: 140, value: (t) => t.skills.join(', ') },
  { field: 'cost_per_mile', headerName: '$/mile', width: 90, align: 'right', hideOnPhone: true, value: (t) => (t.cost_per_mile === null ? 'default' : Number(t.cost_per_mile).toFixed(2)) },
  { field: 'cost_per_hour', headerName: '$/hour', width: 90, align: 'right', hideOnPhone: true, value: (t) => (t.cost_per_hour === null ? 'default' : Number(t.cost_per_hour).toFixed(2)) },
];

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
interface ShiftForm {
  driver_id: number | null;
  truck_id: number | null;
  days: number[];
  start: string;
  end: string;
  max_duty_hours: number | null;
}
const hhmm = (t: string) => t.slice(0, 5);
const shiftBody = (v: ShiftForm) => ({ driver_id: v.driver_id!, truck_id: v.truck_id, days: v.days, start: `${hhmm(v.start)}:00`, end: `${hhmm(v.end)}:00`, max_duty_hours: v.max_duty_hours }) as unknown as DriverShiftCreate;
const shiftFields: FieldDef<ShiftForm>[] = [
  { name: 'driver_id', label: 'Driver', type: 'select', required: true, width: 6, useOptions: () => useDriverOptions() },
  { name: 'truck_id', label: 'Truck', type: 'select', width: 6, useOptions: useTruckOptions, helperText: 'The truck driven on these days (needed to plan it)' },
  { name: 'days', label: 'Days', type: 'multiselect', width: 12, options: DAYS.map((d, i) => ({ value: i + 1, label: d })) },
  { name: 'start', label: 'Shift starts', required: true, width: 4, pattern: { regex: /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, message: 'A time like 06:00' }, placeholder: '06:00' },
  { name: 'end', label: 'Shift ends', required: true, width: 4, pattern: { regex: /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, message: 'A time like 17:30' }, placeholder: '17:30', validate: (v, all) => (typeof v === 'string' && all.start && hhmm(v) <= hhmm(all.start) ? 'The shift must end after it starts' : null) },
  { name: 'max_duty_hours', label: 'Max on-duty hours', type: 'number', min: 1, max: 24, step: 0.25, width: 4, helperText: 'Empty: the settings\' rule' },
];
const shiftColumns: ColumnDef<DriverShift>[] = [
  { field: 'driver_name', headerName: 'Driver', sortField: 'driver_name', minWidth: 140 },
  { field: 'start', headerName: 'Shift', sortField: 'start', width: 120, value: (s) => `${hhmm(s.start)}–${hhmm(s.end)}` },
  { field: 'days', headerName: 'Days', minWidth: 150, value: (s) => s.days.map((d) => DAYS[d - 1]).join(' ') },
  { field: 'max_duty_hours', headerName: 'Max duty', width: 100, align: 'right', hideOnPhone: true, value: (s) => (s.max_duty_hours === null ? 'rule' : `${Number(s.max_duty_hours)} h`) },
];

/** Route planning's data: the planner's settings, each truck's routing profile, each driver's shift. */
export default function RoutingSettingsPage() {
  return (
    <PageBody>
      <PageHeader
        title="Route planning settings"
        subtitle="What the day planner assumes: distances and speeds, stop times, duty limits and costs; which trucks it may use and carry what; when each driver works; what each delivery site allows."
        actions={
          <Button component={RouterLink} to="/dispatch-center/plan" variant="outlined">
            Plan the day
          </Button>
        }
      />
      <SettingsSection />
      <Box sx={{ mt: 3 }}>
        <ResourceListPage<TruckRouting, TruckForm, TruckRoutingCreate, TruckRoutingUpdate>
          embedded
          title="Trucks"
          subtitle="A truck without a profile carries every fuel, costs the default rates and starts and ends at its home yard."
          singular="Truck profile"
          plural="truck profiles"
          resource={truckRoutingApi}
          permission="truck_routing"
          columns={truckColumns}
          describe={(t) => t.truck_number}
          defaultPageSize={25}
          defaultSort={{ field: 'truck_number', order: 'asc' }}
          searchPlaceholder="Search trucks"
          exportFilename={false}
          form={{
            fields: truckFields,
            emptyValues: { truck_id: null, product_ids: [], cost_per_mile: null, cost_per_hour: null, skills: '', start_yard_id: null, end_yard_id: null, plans: true },
            toValues: (t) => ({ truck_id: t.truck_id, product_ids: t.product_ids, cost_per_mile: t.cost_per_mile === null ? null : Number(t.cost_per_mile), cost_per_hour: t.cost_per_hour === null ? null : Number(t.cost_per_hour), skills: t.skills.join(', '), start_yard_id: t.start_yard_id, end_yard_id: t.end_yard_id, plans: t.plans }),
            toCreateBody: truckBody,
            toUpdateBody: truckBody,
          }}
        />
      </Box>
      <Box sx={{ mt: 3 }}>
        <ResourceListPage<DriverShift, ShiftForm, DriverShiftCreate, DriverShiftUpdate>
          embedded
          title="Driver shifts"
          subtitle="The planner plans a truck on the days a driver's shift names it, with that driver, inside the shift."
          singular="Driver shift"
          plural="driver shifts"
          resource={driverShiftApi}
          permission="driver_shift"
          columns={shiftColumns}
          describe={(s) => s.driver_name}
          defaultPageSize={25}
          defaultSort={{ field: 'driver_name', order: 'asc' }}
          searchPlaceholder="Search drivers"
          exportFilename={false}
          form={{
            fields: shiftFields,
            emptyValues: { driver_id: null, truck_id: null, days: [1, 2, 3, 4, 5], start: '06:00', end: '18:00', max_duty_hours: null },
            toValues: (s) => ({ driver_id: s.driver_id, truck_id: s.truck_id, days: s.days, start: hhmm(s.start), end: hhmm(s.end), max_duty_hours: s.max_duty_hours === null ? null : Number(s.max_duty_hours) }),
            toCreateBody: shiftBody,
            toUpdateBody: shiftBody,
          }}
        />
      </Box>
      <Box sx={{ mt: 3 }} id="sites" component="section" aria-label="Sites">
        <SiteConstraintsList
          title="Sites"
          subtitle="Delivery sites with limits: the largest truck that fits, what the truck needs there (a long hose), extra minutes on site. A ship-to without constraints takes any truck."
        />
      </Box>
    </PageBody>
  );
}
