import type { ApiData } from '@/lib/api/types';

/** Generated types (from spa/openapi.json), named for the session. */
export type Profile = ApiData<'/api/profile', 'get'>;
export type SessionData = ApiData<'/api/login', 'post'>;
export type CompanySettings = NonNullable<ApiData<'/api/company-settings', 'get'>>;
export type LogoFile = CompanySettings['logo'][number];
