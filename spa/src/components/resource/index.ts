/** The resource-page kit: list pages and form dialogs described as data (see docs/spa.md). */
export { ResourceListPage, type ResourceListPageProps, type ResourceFormConfig, type RowAction } from './ResourceListPage';
// The parts ResourceListPage composes, for screens that need only some of them (a board, a day view).
export { useListState, readListQuery, writeListQuery, listParams, type ListState, type ListQuery, type ListSort, type ListStateOptions } from './listState';
export { useResourceList, type ResourceList, type ResourceListOptions } from './useResourceList';
export { ListToolbar, SearchBox, SEARCH_DEBOUNCE_MS, type ListToolbarProps, type SearchBoxProps } from './ListToolbar';
export { ListHeader, ListFrame, ListActions, useListExport, type ListHeaderProps, type ListActionsProps } from './ListHeader';
export { ResourceTable, gridSortModel, PAGE_GRID_HEIGHT, type ResourceTableProps } from './ResourceTable';
export { rowActionsColumn, rowActionItems, type RowActionsOptions } from './rowActions';
export { useListDialogs, ResourceFormDialog, ResourceDeleteDialog, ResourceImportDialog, type ListDialogs, type ResourceFormDialogProps, type ResourceDeleteDialogProps, type ResourceImportDialogProps } from './ResourceDialogs';
export { FilterBar, describeFilter } from './FilterBar';
export { FormDialog, type FormDialogProps } from './FormDialog';
export { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog';
export { createResourceApi, type ResourceApi, type ResourceApiConfig, type ListFetchState } from './resourceApi';
export { validateValues } from './validation';
export { FormField } from './FormFields';
export { toCsv, csvCell, downloadCsv } from './csv';
export type { FieldDef, FormMode, CustomFieldProps, OptionsState } from './formTypes';
export * from './types';
export { CsvImportDialog, type CsvImportDialogProps } from './CsvImportDialog';
export { importApi, isRunning, type DataImport, type ImportRowError } from './importApi';
export { uniqueById } from './resourceApi';
export { ToolbarSelect, ToolbarCombobox, type ToolbarSelectProps } from './ToolbarSelect';
export { ActiveChip, StatusChip, WARNING_SX, type StatusStyle } from './chips';
export { addressFields, stateCityFields, latLongFields, numOrNull, type AddressValues, type StateCityValues, type LatLongValues } from './presets';
