/**
 * The forecast API's shapes (docs/forecast.md, /work/helpers/fc-interface.md).
 *
 * PROVISIONAL: written from the contract while the forecast routes were being built beside these
 * screens. When the routes land in spa/openapi.json, each type below becomes the generated one
 * (`PageItem<'/api/forecast/due'>`, `ApiData<'/api/forecast/tank/{asset_id}', 'get'>`, ...) and
 * tsc shows every field that differs.
 */
import type { PageItem } from '@/lib/api/types';

export type JobLogEntry = PageItem<'/api/job-log'>;

export type Confidence = 'high' | 'medium' | 'low';
export type Program = 'keep_full' | 'will_call';
export type UsageModel = 'weather' | 'calendar';

/** One row of GET /forecast/due. */
export interface DueRow {
  asset_id: number;
  asset_name: string;
  customer_id: number;
  customer_name: string;
  ship_to_id?: number | null;
  ship_to_name?: string | null;
  product_id?: number | null;
  product_name?: string | null;
  usable_gallons: string | number;
  level_gallons: string | number;
  level_percent: string | number;
  reorder_date: string | null;
  runout_date: string | null;
  runout_early?: string | null;
  runout_late?: string | null;
  suggested_date: string;
  suggested_gallons: string | number;
  confidence: Confidence;
  reason: string;
  risk: number;
  open_order_id: number | null;
  open_order_number?: string | null;
}

export interface CreateOrdersBody {
  tanks: Array<{ asset_id: number; planned_date?: string; quantity?: string }>;
}

/** POST /forecast/due/orders: what was created, and what was refused row by row. */
export interface CreatedOrders {
  created: Array<{ asset_id: number; order_id: number; order_number?: string | null; customer_name?: string | null; quantity?: string | number | null; planned_date?: string | null }>;
  errors: Array<{ asset_id: number; detail: string }>;
}

export interface TankSettings {
  program: Program;
  usage_model: UsageModel;
  max_fill_percent: string | number;
  reorder_percent?: string | number | null;
  reorder_gallons?: string | number | null;
  weather_zone_id?: number | null;
  k_factor_override?: string | number | null;
  baseload_override?: string | number | null;
  daily_rate_override?: string | number | null;
}

export type TankSettingsUpdate = Partial<TankSettings>;

export interface UsageFitOut {
  model: UsageModel;
  k_factor?: number | string | null;
  k_factor_low?: number | string | null;
  k_factor_high?: number | string | null;
  baseload?: number | string | null;
  baseload_low?: number | string | null;
  baseload_high?: number | string | null;
  daily_rate?: number | string | null;
  daily_rate_low?: number | string | null;
  daily_rate_high?: number | string | null;
  n_intervals: number;
  method?: string | null;
  overridden: boolean;
}

export interface HistoryReading {
  taken_at: string;
  gallons: string | number;
  percent?: string | number | null;
  source?: string | null;
}

export interface HistoryDelivery {
  delivered_on: string;
  gallons: string | number;
  order_id?: number | null;
  order_number?: string | null;
}

export interface ProjectionDay {
  date: string;
  level: string | number;
  low: string | number;
  high: string | number;
}

/** GET /forecast/tank/{asset_id}. */
export interface TankForecast {
  asset_id: number;
  asset_name: string;
  customer_id?: number | null;
  customer_name?: string | null;
  product_name?: string | null;
  serial?: string | null;
  capacity_gallons: string | number | null;
  usable_gallons: string | number | null;
  reorder_gallons: string | number | null;
  settings: TankSettings;
  fit: UsageFitOut | null;
  readings: HistoryReading[];
  deliveries: HistoryDelivery[];
  projection: ProjectionDay[];
  reorder_date?: string | null;
  runout_date?: string | null;
  runout_early?: string | null;
  runout_late?: string | null;
  open_order_id?: number | null;
  cannot_forecast: string | null;
}

export interface Reading {
  id: number;
  asset_id: number;
  asset_name?: string | null;
  serial?: string | null;
  taken_at: string;
  gallons: string | number;
  percent?: string | number | null;
  source?: string | null;
}

export interface ReadingCreate {
  asset_id?: number;
  serial?: string;
  taken_at: string;
  gallons?: string;
  percent?: string;
}

export interface WeatherZone {
  id: number;
  name: string;
  station?: string | null;
  provider?: string | null;
  latitude?: string | number | null;
  longitude?: string | number | null;
}

export type WeatherZoneWrite = Omit<WeatherZone, 'id'>;

export interface Temperature {
  id: number;
  zone_id: number;
  zone_name?: string | null;
  day: string;
  mean_f: string | number;
  source?: string | null;
}

/** POST /forecast/run: the job queued. */
export interface ForecastRun {
  job_id?: number | null;
  kind: string;
  message?: string | null;
}
