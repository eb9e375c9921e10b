import { createResourceApi } from '@/components/resource';
import type { ApiBody, PageItem } from '@/lib/api/types';

export type Contact = PageItem<'/api/customer-contact'>;
export type ContactCreate = ApiBody<'/api/customer-contact', 'post'>;
export type ContactUpdate = ApiBody<'/api/customer-contact/{id}', 'put'>;

export const contactsApi = createResourceApi<Contact, ContactCreate, ContactUpdate>({
  key: 'customerContact',
  tag: 'CustomerContact',
  listPath: '/customer-contact',
  exportPath: '/customer-contact/export',
  itemPath: (id) => `/customer-contact/${id}`,
});
