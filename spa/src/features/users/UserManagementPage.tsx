import BlockOutlined from '@mui/icons-material/BlockOutlined';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Chip from '@mui/material/Chip';
import { toast } from 'react-toastify';
import { ResourceListPage, type ColumnDef, type FieldDef } from '@/components/resource';
import { isApiError } from '@/lib/api/errors';
import { useRoleOptions } from '@/lib/api/lookups';
import { passwordProblem } from '@/lib/validation';
import { usersApi, type User, type UserCreate, type UserUpdate } from './usersApi';

interface UserForm {
  name: string;
  email: string;
  username: string;
  phone: string;
  password: string;
  role_id: number | null;
  is_active: boolean;
}

const fmtDate = (v: string | null | undefined) => (v ? new Date(v).toLocaleString() : 'Never');

const columns: ColumnDef<User>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name', minWidth: 160 },
  { field: 'email', headerName: 'Email', sortField: 'email', minWidth: 200 },
  { field: 'username', headerName: 'Username', sortField: 'username', hideOnPhone: true },
  { field: 'role', headerName: 'Role', value: (u) => u.role?.name ?? '', render: (u) => u.role?.name ?? 'No role' },
  {
    field: 'is_active', headerName: 'Status', width: 110, value: (u) => (u.is_active ? 'Active' : 'Inactive'),
    render: (u) => <Chip size="small" label={u.is_active ? 'Active' : 'Inactive'} color={u.is_active ? 'success' : 'default'} variant="outlined" />,
  },
  { field: 'last_login', headerName: 'Last sign-in', sortField: 'last_login', hideOnPhone: true, value: (u) => u.last_login ?? '', render: (u) => fmtDate(u.last_login) },
];

const fields: FieldDef<UserForm>[] = [
  { name: 'name', label: 'Full name', required: true, maxLength: 200, width: 6, autoComplete: 'off' },
  { name: 'email', label: 'Email', type: 'email', required: true, width: 6, autoComplete: 'off' },
  { name: 'username', label: 'Username', width: 6, minLength: 3, maxLength: 150, pattern: { regex: /^[A-Za-z0-9_.@+-]+$/, message: 'Use letters, digits and . _ @ + - only' }, helperText: 'Optional; defaults to the email' },
  { name: 'phone', label: 'Phone', width: 6, maxLength: 40 },
  {
    name: 'password', label: 'Password', type: 'password', width: 12,
    required: (mode) => mode === 'create',
    helperText: (mode) => (mode === 'create' ? 'At least 10 characters with letters and digits' : 'Leave empty to keep the current password'),
    validate: (v) => (typeof v === 'string' && v ? passwordProblem(v) : null),
  },
  { name: 'role_id', label: 'Role', type: 'select', width: 6, useOptions: () => useRoleOptions(), helperText: 'What this user may see and do' },
  { name: 'is_active', label: 'Active (can sign in)', type: 'switch', width: 6 },
];

const empty: UserForm = { name: '', email: '', username: '', phone: '', password: '', role_id: null, is_active: true };

export default function UserManagementPage() {
  const [update] = usersApi.useUpdate();
  const setActive = async (u: User, active: boolean) => {
    try {
      await update(u.id, { is_active: active });
      toast.success(active ? `${u.name} can sign in again` : `${u.name} is deactivated and can no longer sign in`);
    } catch (err) {
      toast.error(isApiError(err) ? err.message : 'Failed to update user');
    }
  };

  return (
    <ResourceListPage<User, UserForm, UserCreate, UserUpdate>
      title="User Management"
      subtitle="Logins for office staff and drivers, and the role each one has."
      singular="User"
      plural="users"
      resource={usersApi}
      columns={columns}
      describe={(u) => u.name || u.email}
      defaultPageSize={100}
      defaultSort={{ field: 'name', order: 'asc' }}
      searchPlaceholder="Search by name, email or username"
      filters={[
        { field: 'name', label: 'Name', type: 'text' },
        { field: 'email', label: 'Email', type: 'text' },
        { field: 'is_active', label: 'Active', type: 'boolean' },
      ]}
      form={{
        fields,
        emptyValues: empty,
        toValues: (u) => ({ name: u.name, email: u.email, username: u.username, phone: u.phone ?? '', password: '', role_id: u.role_id ?? null, is_active: u.is_active }),
        toCreateBody: (v) => ({ name: v.name.trim(), email: v.email.trim(), username: v.username.trim() || null, phone: v.phone.trim(), password: v.password, role_id: v.role_id, is_active: v.is_active }),
        toUpdateBody: (v) => ({
          name: v.name.trim(), email: v.email.trim(), username: v.username.trim() || undefined, phone: v.phone.trim(), role_id: v.role_id, is_active: v.is_active,
          ...(v.password ? { password: v.password } : {}),
        }),
      }}
      rowActions={(u) => [
        u.is_active
          ? { label: 'Deactivate', icon: <BlockOutlined />, onClick: () => void setActive(u, false) }
          : { label: 'Activate', icon: <CheckCircleOutlined />, onClick: () => void setActive(u, true) },
      ]}
      deleteMessage={(u) => `This permanently deletes the login of ${u.name} (${u.email}). To keep their history but stop them signing in, deactivate the user instead.`}
      deleteAlternative={(u) => (u.is_active ? { label: 'Deactivate instead', run: () => update(u.id, { is_active: false }) } : undefined)}
      exportFilename="users"
    />
  );
}
