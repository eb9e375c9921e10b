import { createResourceApi } from '@/components/resource';
import type { ApiBody, PageItem } from '@/lib/api/types';

export type User = PageItem<'/api/user-account'>;
export type UserCreate = ApiBody<'/api/user-account', 'post'>;
export type UserUpdate = ApiBody<'/api/user-account/{id}', 'put'>;

export const usersApi = createResourceApi<User, UserCreate, UserUpdate>({
  key: 'user',
  tag: 'User',
  listPath: '/user-account',
  exportPath: '/user-account/export',
  itemPath: (id) => `/user-account/${id}`,
  invalidates: ['Role'],
});
