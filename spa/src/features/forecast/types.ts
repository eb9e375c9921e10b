/** The forecast API's shapes, read off the generated client (spa/src/lib/api/schema.d.ts). */
import type { ApiBody, ApiData, ApiQuery, PageItem, Schemas } from '@/lib/api/types';

export type DueList = ApiData<'/api/forecast/due', 'get'>;
export type DueQuery = ApiQuery<'/api/forecast/due', 'get'>;
export type DueRow = DueList['rows'][number];
export type Confidence = 'high' | 'medium' | 'low';

export type CreateOrdersBody = ApiBody<'/api/forecast/due/orders', 'post'>;
export type CreatedOrders = ApiData<'/api/forecast/due/orders', 'post'>;
export type CreatedOrder = CreatedOrders['orders'][number];

export type TankForecast = ApiData<'/api/forecast/tank/{asset_id}', 'get'>;
export type TankSettings = TankForecast['settings'];
export type TankSettingsUpdate = ApiBody<'/api/forecast/tank/{asset_id}/settings', 'put'>;
export type UsageFitOut = Schemas['ForecastFitOut'];
export type HistoryPoint = TankForecast['history'][number];
export type ProjectionDay = TankForecast['projection'][number];

export type Reading = PageItem<'/api/forecast/reading'>;
export type ReadingCreate = ApiBody<'/api/forecast/reading', 'post'>;

export type WeatherZone = PageItem<'/api/forecast/weather/zones'>;
export type WeatherZoneWrite = ApiBody<'/api/forecast/weather/zones', 'post'>;
export type Temperature = PageItem<'/api/forecast/weather/temperatures'>;
export type TemperatureWrite = ApiBody<'/api/forecast/weather/temperatures', 'post'>;

export type ForecastRun = ApiData<'/api/forecast/run/{id}', 'get'>;
