/** The resource-page kit: list pages and form dialogs described as data (see docs/spa.md). */
export { ResourceListPage, type ResourceListPageProps, type ResourceFormConfig, type RowAction } from './ResourceListPage';
export { FormDialog, type FormDialogProps } from './FormDialog';
export { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog';
export { createResourceApi, type ResourceApi, type ResourceApiConfig, type ListState } from './resourceApi';
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
