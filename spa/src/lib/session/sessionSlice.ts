import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { STORAGE_KEYS } from '@/lib/auth/storageKeys';
import { type ApiError, isApiError } from '@/lib/api/errors';
import { apiRequest } from '@/lib/api/http';
import { handleUnauthorized } from '@/lib/api/unauthorized';
import { profileLoaded } from './loginSlice';
import type { CompanySettings, Profile } from './types';
import { toText } from '@/lib/text';

export type LoadStatus = 'idle' | 'pending' | 'fulfilled' | 'rejected';

export const MSG_FETCH_SETTINGS_FAILED = 'Failed to fetch company settings';
export const MSG_FETCH_PROFILE_FAILED = 'Failed to fetch profile';

/** Not persisted: company settings and profile, fetched once after login. */
export interface SessionState {
  settings: CompanySettings | null;
  /** True when the settings are the default placeholder (none saved yet, or the fallback rule). */
  settingsArePlaceholder: boolean;
  settingsStatus: LoadStatus;
  settingsError: string | null;
  profile: Profile | null;
  profileStatus: LoadStatus;
  profileError: string | null;
}

const initialState: SessionState = {
  settings: null,
  settingsArePlaceholder: true,
  settingsStatus: 'idle',
  settingsError: null,
  profile: null,
  profileStatus: 'idle',
  profileError: null,
};

/** Spec section 5: these texts in a settings answer mean "use the default placeholder settings". */
export function isSettingsValidationText(text: unknown): boolean {
  const t = toText(text).toLowerCase();
  return t.includes('validation error') || t.includes('none is not an allowed value');
}

/** Settings may be in message.data or top-level data (spec section 7). */
export function pickSettings(result: { message: unknown }): CompanySettings | null {
  const m = result.message as Record<string, unknown> | null;
  if (!m || typeof m !== 'object') return null;
  const inner = (m.message && typeof m.message === 'object' ? (m.message as Record<string, unknown>).data : undefined) ?? m.data;
  return inner && typeof inner === 'object' ? (inner as CompanySettings) : null;
}

/** Profile is read from data, message.data, or the whole response (spec section 7). */
export function pickProfile(result: { message: unknown }): Profile | null {
  const m = result.message as Record<string, unknown> | null;
  if (!m || typeof m !== 'object') return null;
  const candidate =
    (m.data && typeof m.data === 'object' ? m.data : null) ??
    (m.message && typeof m.message === 'object' ? (m.message as Record<string, unknown>).data : null) ??
    m;
  return candidate && typeof candidate === 'object' && 'id' in candidate ? (candidate as Profile) : null;
}

export const fetchCompanySettings = createAsyncThunk<
  { settings: CompanySettings | null; placeholder: boolean },
  void,
  { rejectValue: string }
>('session/fetchCompanySettings', async (_, { rejectWithValue }) => {
  try {
    const result = await apiRequest('/company-settings/');
    const settings = pickSettings(result);
    return { settings, placeholder: !settings };
  } catch (err) {
    const e: ApiError = isApiError(err) ? err : { status: 'FETCH_ERROR', message: MSG_FETCH_SETTINGS_FAILED };
    if (isSettingsValidationText(e.message)) return { settings: null, placeholder: true };
    if (e.code === 'UNAUTHORIZED' && e.status === 401) {
      handleUnauthorized(e.message, 'settings');
      return rejectWithValue(e.message);
    }
    // A signed-in user without the settings permission (e.g. a driver) sees the placeholder.
    if (e.status === 403) return { settings: null, placeholder: true };
    return rejectWithValue(e.message || MSG_FETCH_SETTINGS_FAILED);
  }
});

export const fetchProfile = createAsyncThunk<Profile, void, { rejectValue: string }>(
  'session/fetchProfile',
  async (_, { rejectWithValue, dispatch }) => {
    try {
      const profile = pickProfile(await apiRequest('/profile'));
      if (!profile) return rejectWithValue(MSG_FETCH_PROFILE_FAILED);
      rememberUser(profile);
      dispatch(profileLoaded(profile));
      return profile;
    } catch (err) {
      const e: ApiError = isApiError(err) ? err : { status: 'FETCH_ERROR', message: MSG_FETCH_PROFILE_FAILED };
      if (e.code === 'UNAUTHORIZED' && e.status === 401) handleUnauthorized(e.message, 'data');
      return rejectWithValue(MSG_FETCH_PROFILE_FAILED);
    }
  },
);

/** Local storage keeps username and user_role (spec section 3); the layout reads user_role. */
export function rememberUser(profile: Profile): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.username, profile.username ?? '');
    window.localStorage.setItem(STORAGE_KEYS.userName, profile.name ?? '');
    window.localStorage.setItem(STORAGE_KEYS.userRole, profile.role?.name ?? '');
  } catch {
    /* storage unavailable */
  }
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    settingsSaved(state, action: PayloadAction<CompanySettings>) {
      state.settings = action.payload;
      state.settingsArePlaceholder = false;
      state.settingsStatus = 'fulfilled';
      state.settingsError = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchCompanySettings.pending, (state) => {
        state.settingsStatus = 'pending';
        state.settingsError = null;
      })
      .addCase(fetchCompanySettings.fulfilled, (state, action) => {
        state.settingsStatus = 'fulfilled';
        state.settings = action.payload.settings;
        state.settingsArePlaceholder = action.payload.placeholder;
      })
      .addCase(fetchCompanySettings.rejected, (state, action) => {
        state.settingsStatus = 'rejected';
        state.settingsError = action.payload ?? MSG_FETCH_SETTINGS_FAILED;
      })
      .addCase(fetchProfile.pending, (state) => {
        state.profileStatus = 'pending';
        state.profileError = null;
      })
      .addCase(fetchProfile.fulfilled, (state, action) => {
        state.profileStatus = 'fulfilled';
        state.profile = action.payload;
      })
      .addCase(fetchProfile.rejected, (state, action) => {
        state.profileStatus = 'rejected';
        state.profileError = action.payload ?? MSG_FETCH_PROFILE_FAILED;
      });
  },
});

export const { settingsSaved } = sessionSlice.actions;
