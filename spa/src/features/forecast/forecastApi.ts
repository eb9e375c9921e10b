import { api, unwrap } from '@/lib/api/api';
import type { ApiError } from '@/lib/api/errors';
import type {
  CreatedOrders,
  CreateOrdersBody,
  DueRow,
  ForecastRun,
  JobLogEntry,
  Reading,
  ReadingCreate,
  TankForecast,
  TankSettingsUpdate,
  Temperature,
  WeatherZone,
  WeatherZoneWrite,
} from './types';

export type * from './types';

export const MSG_DUE = 'Failed to fetch the due list';
export const MSG_TANK = 'Failed to fetch the tank forecast';
export const MSG_CREATE = 'The orders could not be created.';
export const MSG_SETTINGS = 'The tank settings could not be saved.';
export const MSG_READING = 'The reading could not be saved.';
export const MSG_RUN = 'The forecast could not be started.';
export const MSG_ZONES = 'Failed to fetch weather zones';

/** The server's sentence when it has one, else ours. */
function failed(error: unknown, fallback: string): ApiError {
  const e = error as Partial<ApiError> | undefined;
  return { status: e?.status ?? 'FETCH_ERROR', message: e?.message || fallback, code: e?.code, body: e?.body };
}

/** A list answer that may be paged ({items, ...}) or a plain array. */
function itemsOf<T>(data: unknown): T[] {
  if (Array.isArray(data)) return data as T[];
  if (data && typeof data === 'object' && Array.isArray((data as { items?: unknown }).items)) return (data as { items: T[] }).items;
  return [];
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['ForecastDue', 'ForecastTank', 'ForecastReading', 'WeatherZone', 'Temperature', 'ForecastJob'] });

export const forecastApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    dueList: build.query<DueRow[], { within_days: number }>({
      query: ({ within_days }) => ({ url: '/forecast/due', params: { within_days } }),
      transformResponse: (env) => itemsOf<DueRow>(unwrap(env)),
      transformErrorResponse: (e) => failed(e, MSG_DUE),
      providesTags: [{ type: 'ForecastDue', id: 'LIST' }],
    }),
    createDueOrders: build.mutation<CreatedOrders, CreateOrdersBody>({
      query: (body) => ({ url: '/forecast/due/orders', method: 'POST', body }),
      transformResponse: (env) => unwrap<CreatedOrders>(env),
      transformErrorResponse: (e) => failed(e, MSG_CREATE),
      invalidatesTags: [{ type: 'ForecastDue', id: 'LIST' }, 'ForecastTank'],
    }),
    tankForecast: build.query<TankForecast, number>({
      query: (assetId) => ({ url: `/forecast/tank/${assetId}` }),
      transformResponse: (env) => unwrap<TankForecast>(env),
      transformErrorResponse: (e) => failed(e, MSG_TANK),
      providesTags: (_r, _e, id) => [{ type: 'ForecastTank', id }],
    }),
    saveTankSettings: build.mutation<TankForecast, { assetId: number; body: TankSettingsUpdate }>({
      query: ({ assetId, body }) => ({ url: `/forecast/tank/${assetId}/settings`, method: 'PUT', body }),
      transformResponse: (env) => unwrap<TankForecast>(env),
      transformErrorResponse: (e) => failed(e, MSG_SETTINGS),
      invalidatesTags: (_r, _e, { assetId }) => [{ type: 'ForecastTank', id: assetId }, { type: 'ForecastDue', id: 'LIST' }],
    }),
    readings: build.query<Reading[], { asset_id?: number; page?: number; size?: number }>({
      query: (params) => ({ url: '/forecast/reading', params: { page: 1, size: 50, ...params } }),
      transformResponse: (env) => itemsOf<Reading>(unwrap(env)),
      transformErrorResponse: (e) => failed(e, 'Failed to fetch readings'),
      providesTags: [{ type: 'ForecastReading', id: 'LIST' }],
    }),
    addReading: build.mutation<Reading, ReadingCreate>({
      query: (body) => ({ url: '/forecast/reading', method: 'POST', body }),
      transformResponse: (env) => unwrap<Reading>(env),
      transformErrorResponse: (e) => failed(e, MSG_READING),
      invalidatesTags: [{ type: 'ForecastReading', id: 'LIST' }, 'ForecastTank', { type: 'ForecastDue', id: 'LIST' }],
    }),
    weatherZones: build.query<WeatherZone[], void>({
      query: () => ({ url: '/forecast/weather/zone', params: { page: 1, size: 100 } }),
      transformResponse: (env) => itemsOf<WeatherZone>(unwrap(env)),
      transformErrorResponse: (e) => failed(e, MSG_ZONES),
      providesTags: [{ type: 'WeatherZone', id: 'LIST' }],
    }),
    createWeatherZone: build.mutation<WeatherZone, WeatherZoneWrite>({
      query: (body) => ({ url: '/forecast/weather/zone', method: 'POST', body }),
      transformResponse: (env) => unwrap<WeatherZone>(env),
      transformErrorResponse: (e) => failed(e, 'The weather zone could not be saved.'),
      invalidatesTags: [{ type: 'WeatherZone', id: 'LIST' }],
    }),
    deleteWeatherZone: build.mutation<unknown, number>({
      query: (id) => ({ url: `/forecast/weather/zone/${id}`, method: 'DELETE' }),
      transformErrorResponse: (e) => failed(e, 'The weather zone could not be deleted.'),
      invalidatesTags: [{ type: 'WeatherZone', id: 'LIST' }],
    }),
    temperatures: build.query<Temperature[], { zone_id?: number; page?: number; size?: number }>({
      query: (params) => ({ url: '/forecast/weather/temperature', params: { page: 1, size: 30, ...params } }),
      transformResponse: (env) => itemsOf<Temperature>(unwrap(env)),
      transformErrorResponse: (e) => failed(e, 'Failed to fetch temperatures'),
      providesTags: [{ type: 'Temperature', id: 'LIST' }],
    }),
    runForecast: build.mutation<ForecastRun, void>({
      query: () => ({ url: '/forecast/run', method: 'POST' }),
      transformResponse: (env) => unwrap<ForecastRun>(env),
      transformErrorResponse: (e) => failed(e, MSG_RUN),
    }),
    /** The newest job-log entry of a kind: how a started run is followed to its end. */
    latestJob: build.query<JobLogEntry | null, { kind: string }>({
      query: ({ kind }) => ({ url: '/job-log', params: { kind, page: 1, size: 1 } }),
      transformResponse: (env) => itemsOf<JobLogEntry>(unwrap(env))[0] ?? null,
      providesTags: ['ForecastJob'],
    }),
  }),
});

export const {
  useDueListQuery,
  useCreateDueOrdersMutation,
  useTankForecastQuery,
  useSaveTankSettingsMutation,
  useReadingsQuery,
  useAddReadingMutation,
  useWeatherZonesQuery,
  useCreateWeatherZoneMutation,
  useDeleteWeatherZoneMutation,
  useTemperaturesQuery,
  useRunForecastMutation,
  useLatestJobQuery,
} = forecastApi;
