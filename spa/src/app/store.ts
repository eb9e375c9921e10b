import { combineReducers, configureStore, createAction, type UnknownAction } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { FLUSH, PAUSE, PERSIST, PURGE, REGISTER, REHYDRATE, persistReducer, persistStore } from 'redux-persist';
import storage from 'redux-persist/es/storage';
import { api } from '@/lib/api/api';
import type { SharedState } from '@/lib/session/hooks';
import { customerContactSlice } from '@/features/customerContact/customerContactSlice';
import { loginSlice } from '@/lib/session/loginSlice';
import { sessionSlice } from '@/lib/session/sessionSlice';

/** Resets every slice to its initial state (logout, unauthorized). */
export const clientStateReset = createAction('app/clientStateReset');

/** Only these slices are persisted (spec section 3). */
export const PERSISTED_SLICES = ['login', 'customerContact'] as const;
export const PERSIST_KEY = 'root';
/** Spec section 9: state persistence timeout 5000 ms. */
export const PERSIST_TIMEOUT_MS = 5000;

const appReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  login: loginSlice.reducer,
  customerContact: customerContactSlice.reducer,
  session: sessionSlice.reducer,
});

type AppReducerState = ReturnType<typeof appReducer>;

const rootReducer = (state: AppReducerState | undefined, action: UnknownAction): AppReducerState =>
  appReducer(clientStateReset.match(action) ? undefined : state, action);

export const persistConfig = {
  key: PERSIST_KEY,
  version: 1,
  storage,
  whitelist: [...PERSISTED_SLICES] as string[],
  timeout: PERSIST_TIMEOUT_MS,
};

export function makeStore() {
  const store = configureStore({
    reducer: persistReducer<AppReducerState>(persistConfig, rootReducer),
    middleware: (getDefault) =>
      getDefault({ serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] } }).concat(api.middleware),
  });
  const persistor = persistStore(store);
  // Focus and reconnect events for the queries that ask for refetchOnFocus / refetchOnReconnect.
  setupListeners(store.dispatch);
  return { store, persistor };
}

export type AppStore = ReturnType<typeof makeStore>['store'];
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];

// The typed hooks of lib/session/hooks.ts read SharedState: the store must provide it.
const _providesSharedState = (s: RootState): SharedState => s;
void _providesSharedState;
