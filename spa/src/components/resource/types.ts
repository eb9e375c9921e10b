import type { ReactNode } from 'react';
import type { PageOf } from '@/lib/api/types';

export type { PageOf };

/** Spec section 5: the list filter operators. */
export const FILTER_OPERATORS = ['contains', 'equals', 'startsWith', 'endsWith', 'greaterThan', 'lessThan', 'between'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export const OPERATOR_LABELS: Record<FilterOperator, string> = {
  contains: 'contains',
  equals: 'equals',
  startsWith: 'starts with',
  endsWith: 'ends with',
  greaterThan: 'greater than',
  lessThan: 'less than',
  between: 'between',
};

/** The query every server-side list takes (the backend's ListParams). */
export interface ListParams {
  page: number;
  size: number;
  search?: string;
  sort_by?: string;
  order?: 'asc' | 'desc';
  filter_field?: string;
  filter_operator?: FilterOperator;
  filter_value?: string;
  [extra: string]: string | number | boolean | undefined;
}

export type RowId = number | string;

export interface ColumnDef<T> {
  field: string;
  headerName: string;
  /** Sortable on the server under this name (sort_by); omit for unsortable columns. */
  sortField?: string;
  flex?: number;
  minWidth?: number;
  width?: number;
  align?: 'left' | 'right' | 'center';
  /** The cell's content; defaults to the row's value at `field`. */
  render?: (row: T) => ReactNode;
  /** Plain value for CSV export and for client-side sort/search; defaults to row[field]. */
  value?: (row: T) => string | number | boolean | null | undefined;
  /** Hidden at phone width (≤ 768px): not in the phone's card either. */
  hideOnPhone?: boolean;
  /**
   * Its place on the phone's card (one card per row below 768px): 'title' heads the card, 'status'
   * sits beside the title. Defaults: the first column is the title, a `status` / `*_status` /
   * `is_active` column the status; every other column is a labelled line.
   */
  card?: 'title' | 'status';
}

export type FilterFieldType = 'text' | 'number' | 'date' | 'boolean';

export interface FilterFieldDef {
  field: string;
  label: string;
  type: FilterFieldType;
}

/** Operators that make sense for a field type (the server refuses the others). */
export function operatorsFor(type: FilterFieldType): FilterOperator[] {
  switch (type) {
    case 'text':
      return ['contains', 'equals', 'startsWith', 'endsWith'];
    case 'boolean':
      return ['equals'];
    default:
      return ['equals', 'greaterThan', 'lessThan', 'between'];
  }
}

export interface ActiveFilter {
  field: string;
  operator: FilterOperator;
  value: string;
}

export interface Option {
  value: string | number;
  label: string;
}
