import { createResourceApi } from '@/components/resource';
import type { ApiBody, PageItem } from '@/lib/api/types';

export type SiteConstraint = PageItem<'/api/site-constraint'>;
export type SiteConstraintCreate = ApiBody<'/api/site-constraint', 'post'>;
export type SiteConstraintUpdate = ApiBody<'/api/site-constraint/{id}', 'put'>;

/**
 * A ship-to's delivery constraints for the day planner (max truck size, skills the truck needs,
 * extra minutes on site). Shared: the routing settings list every customer's, the customer page its own.
 */
export const siteConstraintApi = createResourceApi<SiteConstraint, SiteConstraintCreate, SiteConstraintUpdate>({
  key: 'siteConstraint', tag: 'SiteConstraint', listPath: '/site-constraint', exportPath: '/site-constraint/export', itemPath: (id) => `/site-constraint/${id}`,
});
