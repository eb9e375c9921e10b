import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import type { api } from '@/lib/api/api';
import type { LoginState } from './loginSlice';
import type { SessionState } from './sessionSlice';

/**
 * The slices any screen may read: the API cache, who is signed in, the company settings and profile.
 * app/store.ts composes them (plus the features' own slices) and checks at compile time that its
 * RootState has this shape. A feature that owns a slice types its own selector hook next to it.
 */
export type SharedState = Record<typeof api.reducerPath, ReturnType<typeof api.reducer>> & {
  login: LoginState;
  session: SessionState;
};
export type SharedDispatch = ThunkDispatch<SharedState, unknown, UnknownAction>;

export const useAppDispatch = useDispatch.withTypes<SharedDispatch>();
export const useAppSelector = useSelector.withTypes<SharedState>();
