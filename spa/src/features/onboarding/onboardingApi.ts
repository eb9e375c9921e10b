import { api, unwrap } from '@/lib/api/api';
import type { ApiData } from '@/lib/api/types';

export type Onboarding = ApiData<'/api/onboarding', 'get'>;
export type OnboardingStep = Onboarding['steps'][number];

const tagged = api.enhanceEndpoints({ addTagTypes: ['Onboarding'] });

/**
 * GET /onboarding: the checklist, computed by the server from the company's data. It is read again
 * whenever the user comes back to the tab (refetchOnFocus) or to the page, so a step done in another
 * tab or screen shows as done.
 */
export const onboardingApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    onboarding: build.query<Onboarding, void>({
      query: () => ({ url: '/onboarding' }),
      transformResponse: (env) => unwrap<Onboarding>(env),
      providesTags: [{ type: 'Onboarding', id: 'LIST' }],
    }),
  }),
});

export const { useOnboardingQuery } = onboardingApi;
