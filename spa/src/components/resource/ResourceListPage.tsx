import Paper from '@mui/material/Paper';
import { useMemo, type ReactNode } from 'react';
import { usePermissions } from '@/lib/api/lookups';
import { ListActions, ListFrame, ListHeader, useListExport } from './ListHeader';
import { useListState } from './listState';
import { ListToolbar } from './ListToolbar';
import { ResourceDeleteDialog, ResourceFormDialog, ResourceImportDialog, useListDialogs, type ResourceFormConfig } from './ResourceDialogs';
import type { ResourceApi } from './resourceApi';
import { ResourceTable } from './ResourceTable';
import type { RowAction, RowActionsOptions } from './rowActions';
import type { ColumnDef, FilterFieldDef, RowId } from './types';
import { useResourceList } from './useResourceList';

export type { ResourceFormConfig } from './ResourceDialogs';
export type { RowAction } from './rowActions';

export interface ResourceListPageProps<T, V, C, U> {
  title: string;
  subtitle?: ReactNode;
  /** 'User' — used in titles and messages. */
  singular: string;
  /** 'users' — used in empty states. */
  plural: string;
  resource: ResourceApi<T, C, U>;
  columns: readonly ColumnDef<T>[];
  /** The row's name for confirmations and toasts. */
  describe: (row: T) => string;
  getRowId?: (row: T) => RowId;
  defaultPageSize: number;
  pageSizeOptions?: number[];
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  searchPlaceholder?: string;
  filters?: readonly FilterFieldDef[];
  /** 'all' lists (read whole): keeps the rows a page-owned filter allows, before search and sort. */
  rowFilter?: (row: T) => boolean;
  /** Extra list parameters owned by the page (e.g. a status tab). */
  extraParams?: Record<string, string | number | boolean | undefined>;
  form?: ResourceFormConfig<T, V, C, U>;
  canCreate?: boolean;
  canEdit?: (row: T) => boolean;
  canDelete?: (row: T) => boolean;
  deleteMessage?: (row: T) => ReactNode;
  /** Offered in the delete dialog when the server refuses with 409 (e.g. deactivate instead). */
  deleteAlternative?: (row: T) => { label: string; run: () => Promise<unknown> } | undefined;
  rowActions?: (row: T) => RowAction<T>[];
  /** CSV export of the list with its current search and filter; false to hide. */
  exportFilename?: string | false;
  /** Above the grid (e.g. a summary card). */
  headerContent?: ReactNode;
  toolbarExtra?: ReactNode;
  /** More buttons beside 'Export CSV' and 'New …'. */
  headerActions?: ReactNode;
  /** A section of another page (h2 title, no page padding, fixed grid height, state not in the URL). */
  embedded?: boolean;
  /** Grid height (CSS); defaults to the window's height for pages, 360px for sections. */
  gridHeight?: string | number | Record<string, string | number>;
  /** Shown in the CSV import dialog (its columns) when the resource has an importPath. */
  importHelp?: ReactNode;
  /** After a create succeeded (e.g. open the new record). */
  onCreated?: (row: T) => void;
  /** Click on a row (not on its actions). */
  onRowClick?: (row: T) => void;
  actionsWidth?: number;
  /**
   * The permission resource (e.g. 'customer'): without `<it>.add` the create and import buttons
   * hide, without `.change` the edit action, without `.delete` the delete action.
   */
  permission?: string;
}

/**
 * A list-and-form screen: paging, sort, search and filter (kept in the URL), create, edit, delete,
 * CSV export and import. It only composes the kit's parts (useListState, useResourceList,
 * ListHeader/ListActions, ListToolbar, ResourceTable, the dialogs): a screen that needs another
 * layout composes them itself (see docs/spa.md).
 */
export function ResourceListPage<T, V, C, U>(props: ResourceListPageProps<T, V, C, U>) {
  const { title, singular, plural, resource, columns, describe, form, embedded } = props;
  const state = useListState({
    defaultPageSize: props.defaultPageSize,
    defaultSort: props.defaultSort,
    storage: embedded ? 'memory' : 'url',
    sortFields: [...columns.flatMap((c) => (c.sortField ? [c.sortField] : [])), ...(props.defaultSort ? [props.defaultSort.field] : [])],
    filterFields: (props.filters ?? []).map((f) => f.field),
  });
  const list = useResourceList(resource, state, { columns, extraParams: props.extraParams, rowFilter: props.rowFilter });
  const dialogs = useListDialogs<T>();
  const exporter = useListExport(resource, list, { columns, filename: props.exportFilename || plural, plural });

  const perms = usePermissions(props.permission ?? '');
  const allowed = (action: 'add' | 'change' | 'delete') => !props.permission || perms[action];
  const canCreate = !!form && allowed('add') && (props.canCreate ?? true);
  const mayChange = allowed('change');
  const mayDelete = allowed('delete');

  const { canEdit, canDelete, rowActions, actionsWidth } = props;
  const { openEdit, openDelete } = dialogs;
  const actions = useMemo<RowActionsOptions<T> | undefined>(
    () =>
      form || rowActions || canDelete
        ? {
            describe,
            onEdit: form ? openEdit : undefined,
            canEdit: (row) => mayChange && (canEdit?.(row) ?? true),
            onDelete: openDelete,
            canDelete: (row) => mayDelete && (canDelete?.(row) ?? true),
            actions: rowActions,
            width: actionsWidth,
          }
        : undefined,
    [form, rowActions, canEdit, canDelete, describe, actionsWidth, mayChange, mayDelete, openEdit, openDelete],
  );

  const fetch = list.fetch;
  const { editing, deleting, importing, close } = dialogs;
  return (
    <ListFrame embedded={embedded}>
      <ListHeader
        title={title}
        subtitle={props.subtitle}
        embedded={embedded}
        actions={
          <ListActions
            singular={singular}
            onImport={resource.config.importPath && canCreate ? dialogs.openImport : undefined}
            onExport={props.exportFilename !== false ? () => void exporter.run() : undefined}
            exporting={exporter.exporting}
            empty={list.rowCount === 0}
            onCreate={canCreate ? dialogs.openCreate : undefined}
          >
            {props.headerActions}
          </ListActions>
        }
      />
      {props.headerContent}
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <ListToolbar
          state={state}
          searchPlaceholder={props.searchPlaceholder ?? `Search ${plural}`}
          filters={props.filters}
          summary={fetch.isLoading ? 'Loading…' : `${list.rowCount} ${list.rowCount === 1 ? singular.toLowerCase() : plural}`}
        >
          {props.toolbarExtra}
        </ListToolbar>
        <ResourceTable<T>
          state={state}
          columns={columns}
          rows={list.rows}
          rowCount={list.rowCount}
          clientSide={list.clientSide}
          loading={fetch.isFetching}
          error={fetch.error}
          onRetry={fetch.refetch}
          actions={actions}
          getRowId={props.getRowId}
          onRowClick={props.onRowClick}
          emptyText={state.search || state.filter ? `No ${plural} match your search.` : `No ${plural} yet.`}
          plural={plural}
          pageSizeOptions={props.pageSizeOptions}
          height={props.gridHeight ?? (embedded ? 360 : undefined)}
          minHeight={embedded ? 260 : 380}
        />
      </Paper>

      {form && editing && (
        <ResourceFormDialog<T, V, C, U>
          resource={resource}
          form={form}
          mode={editing.mode}
          row={editing.row}
          singular={singular}
          describe={describe}
          getRowId={props.getRowId}
          onClose={close}
          onCreated={props.onCreated}
        />
      )}
      {importing && <ResourceImportDialog resource={resource} singular={singular} plural={plural} help={props.importHelp} onImported={fetch.refetch} onClose={close} />}
      {deleting && (
        <ResourceDeleteDialog
          resource={resource}
          row={deleting}
          singular={singular}
          describe={describe}
          getRowId={props.getRowId}
          message={props.deleteMessage?.(deleting)}
          alternative={props.deleteAlternative?.(deleting)}
          onClose={close}
        />
      )}
    </ListFrame>
  );
}
