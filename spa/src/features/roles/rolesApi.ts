import { createResourceApi } from '@/components/resource';
import { api, unwrap } from '@/lib/api/api';
import type { ApiBody, ApiData, PageItem } from '@/lib/api/types';

export type Role = PageItem<'/api/role'>;
export type RoleCreate = ApiBody<'/api/role', 'post'>;
export type RoleUpdate = ApiBody<'/api/role/{id}', 'put'>;
export type Permission = ApiData<'/api/permission', 'get'>[number];
export type CurrentUser = ApiData<'/api/role/current-user', 'get'>;

export const rolesApi = createResourceApi<Role, RoleCreate, RoleUpdate>({
  key: 'role',
  tag: 'Role',
  listPath: '/role',
  exportPath: '/role/export',
  itemPath: (id) => `/role/${id}`,
  invalidates: ['CurrentUser', 'User'],
});

const extra = api.injectEndpoints({
  endpoints: (build) => ({
    permissionList: build.query<Permission[], void>({
      query: () => ({ url: '/permission' }),
      transformResponse: (env) => unwrap<Permission[]>(env) ?? [],
      providesTags: ['Permission'],
    }),
    roleCurrentUser: build.query<CurrentUser, void>({
      query: () => ({ url: '/role/current-user' }),
      transformResponse: (env) => unwrap<CurrentUser>(env),
      providesTags: ['CurrentUser'],
    }),
  }),
});

export const { usePermissionListQuery, useRoleCurrentUserQuery } = extra;
