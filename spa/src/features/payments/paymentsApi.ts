import { createResourceApi } from '@/components/resource';
import type { ApiBody, PageItem } from '@/lib/api/types';

export type PaymentTerm = PageItem<'/api/payment-term'>;
export type PaymentTermCreate = ApiBody<'/api/payment-term', 'post'>;
export type PaymentTermUpdate = ApiBody<'/api/payment-term/{id}', 'put'>;

export const paymentTermsApi = createResourceApi<PaymentTerm, PaymentTermCreate, PaymentTermUpdate>({
  key: 'paymentTerm',
  tag: 'PaymentTerm',
  listPath: '/payment-term',
  exportPath: '/payment-term/export',
  itemPath: (id) => `/payment-term/${id}`,
});

export type PaymentMethod = PageItem<'/api/payment-method'>;
export type PaymentMethodCreate = ApiBody<'/api/payment-method', 'post'>;
export type PaymentMethodUpdate = ApiBody<'/api/payment-method/{id}', 'put'>;

export const paymentMethodsApi = createResourceApi<PaymentMethod, PaymentMethodCreate, PaymentMethodUpdate>({
  key: 'paymentMethod',
  tag: 'PaymentMethod',
  listPath: '/payment-method',
  exportPath: '/payment-method/export',
  itemPath: (id) => `/payment-method/${id}`,
});
