/** The real application store, for tests of shared code (lib/, components/) that need one. */
export { makeStore } from '@/app/store';
