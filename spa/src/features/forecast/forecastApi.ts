import { api, unwrap } from '@/lib/api/api';
import { createResourceApi } from '@/components/resource';
import type { ApiError } from '@/lib/api/errors';
import type {
  CreatedOrders,
  CreateOrdersBody,
  DueList,
  ForecastRun,
  Reading,
  ReadingCreate,
  TankForecast,
  TankSettingsUpdate,
  Temperature,
  TemperatureWrite,
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

/** The run of a 202 answer ({status_code: 202, data: run}), or null. */
export function acceptedRun(body: unknown): ForecastRun | null {
  if (!body || typeof body !== 'object') return null;
  const env = body as { status_code?: unknown; data?: unknown };
  return env.status_code === 202 && env.data && typeof env.data === 'object' ? (env.data as ForecastRun) : null;
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['ForecastDue', 'ForecastTank', 'ForecastReading', 'WeatherZone', 'Temperature'] });

export const forecastApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    dueList: build.query<DueList, { within_days: number }>({
      query: ({ within_days }) => ({ url: '/forecast/due', params: { within_days } }),
      transformResponse: (env) => unwrap<DueList>(env),
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
    saveTankSettings: build.mutation<unknown, { assetId: number; body: TankSettingsUpdate }>({
      query: ({ assetId, body }) => ({ url: `/forecast/tank/${assetId}/settings`, method: 'PUT', body }),
      transformResponse: (env) => unwrap<unknown>(env),
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
    weatherZonesAll: build.query<WeatherZone[], void>({
      query: () => ({ url: '/forecast/weather/zones/all' }),
      transformResponse: (env) => itemsOf<WeatherZone>(unwrap(env)),
      transformErrorResponse: (e) => failed(e, MSG_ZONES),
      providesTags: ['WeatherZone'],
    }),
    /** POST /forecast/run answers 202 (queued), which the shared layer does not take as an answer. */
    runForecast: build.mutation<ForecastRun, void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const res = await baseQuery({ url: '/forecast/run', method: 'POST' });
        if (!res.error) return { data: unwrap<ForecastRun>(res.data) };
        const queued = acceptedRun(res.error.body);
        return queued ? { data: queued } : { error: failed(res.error, MSG_RUN) };
      },
    }),
    /** A run's progress (done of total tanks) and outcome. */
    forecastRun: build.query<ForecastRun, number>({
      query: (id) => ({ url: `/forecast/run/${id}` }),
      transformResponse: (env) => unwrap<ForecastRun>(env),
      transformErrorResponse: (e) => failed(e, 'Failed to fetch the forecast run'),
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
  useWeatherZonesAllQuery,
  useRunForecastMutation,
  useForecastRunQuery,
} = forecastApi;

export const weatherZonesApi = createResourceApi<WeatherZone, WeatherZoneWrite, Partial<WeatherZoneWrite>>({
  key: 'weatherZone',
  tag: 'WeatherZone',
  listPath: '/forecast/weather/zones',
  exportPath: '/forecast/weather/zones/export',
  itemPath: (id) => `/forecast/weather/zones/${id}`,
});

export const temperaturesApi = createResourceApi<Temperature, TemperatureWrite, never>({
  key: 'dailyTemperature',
  tag: 'Temperature',
  listPath: '/forecast/weather/temperatures',
  exportPath: '/forecast/weather/temperatures/export',
  importPath: '/forecast/weather/temperatures/import',
  itemPath: (id) => `/forecast/weather/temperatures/${id}`,
  invalidates: ['ForecastTank', 'ForecastDue'],
});
