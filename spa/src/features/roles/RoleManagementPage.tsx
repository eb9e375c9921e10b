import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { ResourceListPage, type ColumnDef, type FieldDef } from '@/components/resource';
import { PermissionMatrix } from './PermissionMatrix';
import { rolesApi, useRoleCurrentUserQuery, type Role, type RoleCreate, type RoleUpdate } from './rolesApi';

interface RoleForm {
  name: string;
  description: string;
  permissions: string[];
}

const fields: FieldDef<RoleForm>[] = [
  { name: 'name', label: 'Role name', required: true, maxLength: 80, width: 6 },
  { name: 'description', label: 'Description', maxLength: 300, width: 6 },
  {
    name: 'permissions',
    label: 'Permissions',
    type: 'custom',
    render: ({ value, onChange, disabled, error }) => (
      <PermissionMatrix value={(value as string[]) ?? []} onChange={onChange} disabled={disabled} error={error} />
    ),
  },
];

function CurrentRoleCard() {
  const { data, isLoading, error } = useRoleCurrentUserQuery();
  if (isLoading) return null;
  if (error) return <Alert severity="warning" sx={{ mb: 2 }}>{(error as { message?: string }).message || 'Your role could not be loaded.'}</Alert>;
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }} data-testid="current-role">
      <Typography>
        Signed in as <strong>{data?.name}</strong> with the role
      </Typography>
      <Chip color="primary" label={data?.role?.name ?? 'No role'} />
      <Typography variant="body2" color="text.secondary">
        {data?.role?.grants_all ? 'This role can do everything.' : `${data?.permissions.length ?? 0} permissions.`}
      </Typography>
    </Paper>
  );
}

export default function RoleManagementPage() {
  const { data: me } = useRoleCurrentUserQuery();
  const myRoleId = me?.role?.id;
  const columns: ColumnDef<Role>[] = [
    {
      field: 'name', headerName: 'Role', sortField: 'name', minWidth: 180,
      render: (r) => (
        <span style={{ display: 'inline-flex', gap: 6, alignItems: 'center' }}>
          {r.name}
          {r.is_system && <Chip size="small" label="System" variant="outlined" />}
          {r.id === myRoleId && <Chip size="small" label="Your role" color="primary" />}
        </span>
      ),
    },
    { field: 'description', headerName: 'Description', flex: 2, hideOnPhone: true },
    { field: 'permissions', headerName: 'Permissions', width: 130, value: (r) => (r.grants_all ? 'All' : r.permissions.length) },
    { field: 'user_count', headerName: 'Users', width: 90, align: 'right', value: (r) => r.user_count ?? 0 },
  ];

  return (
    <ResourceListPage<Role, RoleForm, RoleCreate, RoleUpdate>
      title="Roles & Permissions"
      subtitle="A role is a set of permissions. Give each user the role that fits their job."
      singular="Role"
      plural="roles"
      resource={rolesApi}
      columns={columns}
      describe={(r) => r.name}
      defaultPageSize={100}
      defaultSort={{ field: 'name', order: 'asc' }}
      searchPlaceholder="Search roles"
      filters={[{ field: 'name', label: 'Name', type: 'text' }]}
      headerContent={<CurrentRoleCard />}
      form={{
        fields,
        maxWidth: 'md',
        emptyValues: { name: '', description: '', permissions: [] },
        toValues: (r) => ({ name: r.name, description: r.description, permissions: [...r.permissions] }),
        toCreateBody: (v) => ({ name: v.name.trim(), description: v.description.trim(), permissions: v.permissions }),
        toUpdateBody: (v) => ({ name: v.name.trim(), description: v.description.trim(), permissions: v.permissions }),
      }}
      canEdit={(r) => !r.grants_all}
      canDelete={(r) => !r.is_system}
      deleteMessage={(r) =>
        r.user_count ? `${r.user_count} user(s) have the role ${r.name}. Give them another role first, or the server will refuse.` : `This permanently deletes the role ${r.name}.`
      }
      exportFilename="roles"
    />
  );
}
