import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import { useState } from 'react';
import { ActiveChip, ResourceListPage, ToolbarSelect, type ColumnDef, type FieldDef } from '@/components/resource';
import { useRegionOptions, useYardOptions } from '@/lib/api/lookups';
import { passwordProblem } from '@/lib/validation';
import { ExpiryChip, EXPIRY_WARNING_DAYS } from './ExpiryChip';
import { driversApi, type Driver, type DriverCreate, type DriverUpdate } from './fleetApi';

export interface DriverForm {
  name: string;
  phone: string;
  email: string;
  licence_class: '' | 'A' | 'B' | 'C';
  licence_expiry: string | null;
  hazmat_expiry: string | null;
  home_yard_id: number | null;
  region_id: number | null;
  is_active: boolean;
  /** The sign-in: shown for a driver who has one, created for one who has not. */
  login_email_current: string;
  create_login: boolean;
  login_email: string;
  login_password: string;
}

const columns: ColumnDef<Driver>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 150 },
  { field: 'phone', headerName: 'Phone', minWidth: 130, hideOnPhone: true },
  { field: 'licence_expiry', headerName: 'Licence', sortField: 'licence_expiry', minWidth: 240, value: (d) => d.licence_expiry ?? '', render: (d) => <>{d.licence_class && <Chip size="small" label={`CDL ${d.licence_class}`} sx={{ mr: 1 }} />}<ExpiryChip date={d.licence_expiry} days={d.licence_expires_in_days} what="Licence" /></> },
  { field: 'hazmat_expiry', headerName: 'Hazmat', sortField: 'hazmat_expiry', minWidth: 150, hideOnPhone: true, value: (d) => d.hazmat_expiry ?? '', render: (d) => <ExpiryChip date={d.hazmat_expiry} days={d.hazmat_expires_in_days} what="Hazmat endorsement" /> },
  { field: 'home_yard', headerName: 'Home yard', sortField: 'home_yard', minWidth: 120, hideOnPhone: true, value: (d) => d.home_yard?.name ?? '' },
  { field: 'user', headerName: 'Sign-in', minWidth: 170, hideOnPhone: true, value: (d) => d.user?.email ?? '', render: (d) => d.user?.email ?? <em>No sign-in</em> },
  { field: 'is_active', headerName: 'Status', sortField: 'is_active', width: 100, value: (d) => (d.is_active ? 'Active' : 'Inactive'), render: (d) => <ActiveChip active={d.is_active} /> },
];

const hasLogin = (v: DriverForm) => !!v.login_email_current;

export const driverFields: FieldDef<DriverForm>[] = [
  { name: 'name', label: 'Full name', required: true, maxLength: 120, width: 6, autoComplete: 'off' },
  { name: 'phone', label: 'Phone', maxLength: 40, width: 6 },
  { name: 'email', label: 'Contact email', type: 'email', width: 12, helperText: 'Optional; defaults to the sign-in email', autoComplete: 'off' },
  { name: 'licence_class', label: 'CDL class', type: 'select', width: 4, options: [{ value: 'A', label: 'Class A' }, { value: 'B', label: 'Class B' }, { value: 'C', label: 'Class C' }], section: 'Licence' },
  { name: 'licence_expiry', label: 'Licence expiry', type: 'date', width: 4 },
  { name: 'hazmat_expiry', label: 'Hazmat endorsement expiry', type: 'date', width: 4 },
  { name: 'home_yard_id', label: 'Home yard', type: 'select', width: 6, useOptions: () => useYardOptions(), section: 'Assignment' },
  { name: 'region_id', label: 'Region', type: 'select', width: 6, useOptions: () => useRegionOptions() },
  { name: 'is_active', label: 'Active (can be dispatched)', type: 'switch', width: 12 },
  {
    name: 'login_email_current', label: 'Sign-in', type: 'custom', section: 'Sign-in', hidden: (_m, v) => !hasLogin(v),
    render: ({ values }) => <Alert severity="info">Signs in to the driver portal as <strong>{values.login_email_current}</strong>.</Alert>,
  },
  { name: 'create_login', label: 'Create a sign-in for the driver portal', type: 'switch', section: 'Sign-in', hidden: (_m, v) => hasLogin(v) },
  {
    name: 'login_email', label: 'Sign-in email', type: 'email', width: 6, autoComplete: 'off',
    hidden: (_m, v) => hasLogin(v) || !v.create_login, required: (_m, v) => v.create_login,
  },
  {
    name: 'login_password', label: 'Password', type: 'password', width: 6,
    hidden: (_m, v) => hasLogin(v) || !v.create_login, required: (_m, v) => v.create_login,
    helperText: 'At least 10 characters with letters and digits',
    validate: (v) => (typeof v === 'string' && v ? passwordProblem(v) : null),
  },
];

const empty: DriverForm = {
  name: '', phone: '', email: '', licence_class: '', licence_expiry: null, hazmat_expiry: null, home_yard_id: null, region_id: null, is_active: true,
  login_email_current: '', create_login: false, login_email: '', login_password: '',
};

const base = (v: DriverForm) => ({
  name: v.name.trim(), phone: v.phone.trim(), licence_class: v.licence_class || '', licence_expiry: v.licence_expiry, hazmat_expiry: v.hazmat_expiry,
  home_yard_id: v.home_yard_id, region_id: v.region_id, is_active: v.is_active,
  ...(v.email.trim() ? { email: v.email.trim() } : {}),
  ...(v.create_login && !v.login_email_current ? { create_login: { email: v.login_email.trim(), password: v.login_password } } : {}),
});

export default function DriverPage() {
  const [update] = driversApi.useUpdate();
  const yards = useYardOptions();
  const [yardId, setYardId] = useState<number | null>(null);
  const [view, setView] = useState<string | null>(null);
  const extra = view === 'expiring' ? { expiring_within_days: EXPIRY_WARNING_DAYS } : view === 'no_login' ? { has_login: false } : view === 'login' ? { has_login: true } : {};
  return (
    <ResourceListPage<Driver, DriverForm, DriverCreate, DriverUpdate>
      title="Drivers"
      subtitle="Driver records, licence and hazmat expiry, and their sign-in to the driver portal."
      singular="Driver"
      plural="drivers"
      resource={driversApi}
      permission="driver"
      columns={columns}
      describe={(d) => d.name}
      defaultPageSize={100}
      defaultSort={{ field: 'name', order: 'asc' }}
      searchPlaceholder="Search by name, phone or email"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'licence_class', label: 'CDL class', type: 'text' },
        { field: 'licence_expiry', label: 'Licence expiry', type: 'date' },
        { field: 'hazmat_expiry', label: 'Hazmat expiry', type: 'date' },
        { field: 'region', label: 'Region', type: 'text' },
        { field: 'is_active', label: 'Active', type: 'boolean' },
      ]}
      extraParams={{ home_yard_id: yardId ?? undefined, ...extra }}
      toolbarExtra={
        <>
          <ToolbarSelect label="Show" allLabel="All drivers" value={view} onChange={(v) => setView(v as string | null)}
            options={[{ value: 'expiring', label: `Expired or expiring in ${EXPIRY_WARNING_DAYS} days` }, { value: 'login', label: 'With a sign-in' }, { value: 'no_login', label: 'Without a sign-in' }]} />
          <ToolbarSelect label="Home yard" allLabel="All yards" value={yardId} options={yards.options} loading={yards.loading} onChange={(v) => setYardId(v as number | null)} />
        </>
      }
      form={{
        fields: driverFields,
        emptyValues: empty,
        toValues: (d) => ({
          name: d.name, phone: d.phone, email: d.email, licence_class: (d.licence_class || '') as DriverForm['licence_class'], licence_expiry: d.licence_expiry, hazmat_expiry: d.hazmat_expiry,
          home_yard_id: d.home_yard_id, region_id: d.region_id, is_active: d.is_active,
          login_email_current: d.user?.email ?? '', create_login: false, login_email: d.email, login_password: '',
        }),
        toCreateBody: (v) => base(v) as DriverCreate,
        toUpdateBody: (v) => base(v) as DriverUpdate,
      }}
      deleteMessage={(d) =>
        d.user
          ? `This deletes the driver ${d.name}. Their sign-in (${d.user.email}) is kept but deactivated. To keep the record, deactivate the driver instead.`
          : `This deletes the driver ${d.name}. To keep the record, deactivate the driver instead.`
      }
      deleteAlternative={(d) => (d.is_active ? { label: 'Deactivate instead', run: () => update(d.id, { is_active: false }) } : undefined)}
      exportFilename="drivers"
    />
  );
}
