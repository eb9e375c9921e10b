import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Profile } from './types';

/** Persisted (redux-persist): who is signed in. The token itself lives in local storage. */
export interface LoginState {
  user: Profile | null;
  isLoggedIn: boolean;
  loggedInAt: number | null;
}

const initialState: LoginState = { user: null, isLoggedIn: false, loggedInAt: null };

export const loginSlice = createSlice({
  name: 'login',
  initialState,
  reducers: {
    loggedIn(state, action: PayloadAction<{ user: Profile; at?: number }>) {
      state.user = action.payload.user;
      state.isLoggedIn = true;
      state.loggedInAt = action.payload.at ?? Date.now();
    },
    profileLoaded(state, action: PayloadAction<Profile>) {
      state.user = action.payload;
    },
  },
});

export const { loggedIn, profileLoaded } = loginSlice.actions;
