import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Download from '@mui/icons-material/Download';
import UploadFile from '@mui/icons-material/UploadFile';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Search from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { DataGrid, GridActionsCellItem, type GridActionsCellItemProps, type GridColDef, type GridPaginationModel, type GridSortModel } from '@mui/x-data-grid';
import { useEffect, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { isApiError } from '@/lib/api/errors';
import { usePermissions } from '@/lib/api/lookups';
import { ConfirmDialog } from './ConfirmDialog';
import { CsvImportDialog } from './CsvImportDialog';
import { downloadCsv, toCsv } from './csv';
import { FilterBar } from './FilterBar';
import { FormDialog } from './FormDialog';
import type { FieldDef, FormMode } from './formTypes';
import { applyLocal } from './localList';
import type { ResourceApi } from './resourceApi';
import type { ActiveFilter, ColumnDef, FilterFieldDef, ListParams, RowId } from './types';

export interface ResourceFormConfig<T, V, C, U> {
  fields: readonly FieldDef<V>[];
  emptyValues: V;
  toValues: (row: T) => V;
  toCreateBody: (values: V) => C;
  toUpdateBody: (values: V, row: T) => U;
  maxWidth?: 'xs' | 'sm' | 'md' | 'lg';
  /** A sentence for the whole form (e.g. the server's 'Missing required fields'); see FormDialog. */
  validate?: (values: V, mode: FormMode, fieldErrors: Record<string, string>) => string | null;
}

export interface RowAction<T> {
  label: string;
  icon: ReactElement;
  onClick: (row: T) => void;
  hidden?: boolean;
  /** In the row's '⋮' menu instead of an icon button. */
  showInMenu?: boolean;
}

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
  /** A section of another page (h2 title, no page padding, fixed grid height) instead of a page. */
  embedded?: boolean;
  /** Grid height (CSS); defaults to the window's height for pages, 420px for sections. */
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

const GRID_HEIGHT = { xs: 'calc(100vh - 400px)', sm: 'calc(100vh - 250px)' };

/** A list-and-form screen: server-side paging, sort, search and filter; create, edit, delete. */
export function ResourceListPage<T, V, C, U>(props: ResourceListPageProps<T, V, C, U>) {
  const { title, subtitle, singular, plural, resource, columns, describe, defaultPageSize, form, filters = [] } = props;
  const getRowId = props.getRowId ?? ((row: T) => (row as { id: RowId }).id);
  const clientSide = resource.config.listKind === 'all';
  const phone = useMediaQuery('(max-width:768px)');
  const perms = usePermissions(props.permission ?? '');
  const allowed = (action: 'add' | 'change' | 'delete') => !props.permission || perms[action];
  const canEditRow = (row: T) => allowed('change') && (props.canEdit?.(row) ?? true);
  const canDeleteRow = (row: T) => allowed('delete') && (props.canDelete?.(row) ?? true);

  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: defaultPageSize });
  // A default sort on a field that is not a column (e.g. id) is sent to the server but not shown in the grid.
  const defaultSortIsColumn = !!props.defaultSort && columns.some((c) => c.field === props.defaultSort!.field);
  const [sort, setSort] = useState<GridSortModel>(props.defaultSort && defaultSortIsColumn ? [{ field: props.defaultSort.field, sort: props.defaultSort.order }] : []);
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<ActiveFilter | null>(null);
  const [editing, setEditing] = useState<{ mode: 'create' | 'edit'; row?: T } | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);

  // Search is debounced and sends the list back to page 1.
  useEffect(() => {
    const t = setTimeout(() => {
      setSearch(searchInput.trim());
      setPagination((p) => ({ ...p, page: 0 }));
    }, 300);
    return () => clearTimeout(t);
  }, [searchInput]);

  // A page-owned filter (extraParams) that changes sends the list back to page 1.
  const extraKey = JSON.stringify(props.extraParams ?? {});
  useEffect(() => {
    setPagination((p) => (p.page === 0 ? p : { ...p, page: 0 }));
  }, [extraKey]);

  const sortItem = sort[0];
  const sortCol = sortItem ? columns.find((c) => c.field === sortItem.field) : undefined;
  const params: ListParams = {
    page: pagination.page + 1,
    size: pagination.pageSize,
    search: search || undefined,
    sort_by: sortCol?.sortField ?? (!sortItem && props.defaultSort && !defaultSortIsColumn ? props.defaultSort.field : undefined),
    order: sortCol?.sortField && sortItem?.sort ? sortItem.sort : !sortItem && props.defaultSort && !defaultSortIsColumn ? props.defaultSort.order : undefined,
    filter_field: filter?.field,
    filter_operator: filter?.operator,
    filter_value: filter?.value,
    ...props.extraParams,
  };
  const list = resource.useList(params);
  const [create] = resource.useCreate();
  const [update] = resource.useUpdate();
  const [remove] = resource.useRemove();

  const localRows = useMemo(
    () =>
      clientSide
        ? applyLocal(props.rowFilter ? (list.rows ?? []).filter(props.rowFilter) : (list.rows ?? []), columns, { search, filter, sortField: sortCol?.sortField, order: sortItem?.sort ?? undefined })
        : [],
    [clientSide, list.rows, columns, search, filter, sortCol?.sortField, sortItem?.sort, props.rowFilter],
  );
  const rows = clientSide ? localRows : (list.data?.items ?? []);
  const rowCount = clientSide ? localRows.length : (list.data?.total ?? 0);

  const gridColumns = useMemo<GridColDef[]>(() => {
    const cols: GridColDef[] = columns.map((c) => ({
      field: c.field,
      headerName: c.headerName,
      flex: c.width ? undefined : (c.flex ?? 1),
      width: c.width,
      minWidth: c.minWidth ?? 120,
      sortable: !!c.sortField,
      align: c.align,
      headerAlign: c.align,
      renderCell: c.render ? (p) => c.render!(p.row as T) : undefined,
      valueGetter: (_v, row) => (c.value ? c.value(row as T) : (row as Record<string, unknown>)[c.field]),
    }));
    const hasActions = !!form || !!props.rowActions || !!props.canDelete;
    if (hasActions) {
      cols.push({
        field: '__actions',
        type: 'actions',
        headerName: 'Actions',
        width: props.actionsWidth ?? 130,
        getActions: (p) => {
          const row = p.row as T;
          const name = describe(row);
          const items: ReactElement<GridActionsCellItemProps>[] = [];
          if (form && canEditRow(row))
            items.push(<GridActionsCellItem key="edit" icon={<EditOutlined />} label={`Edit ${name}`} onClick={() => setEditing({ mode: 'edit', row })} />);
          for (const a of props.rowActions?.(row) ?? []) {
            if (a.hidden) continue;
            items.push(
              a.showInMenu ? (
                <GridActionsCellItem key={a.label} icon={a.icon} label={a.label} showInMenu onClick={() => a.onClick(row)} />
              ) : (
                <GridActionsCellItem key={a.label} icon={a.icon} label={`${a.label} ${name}`} onClick={() => a.onClick(row)} />
              ),
            );
          }
          if (canDeleteRow(row))
            items.push(<GridActionsCellItem key="delete" icon={<DeleteOutline />} label={`Delete ${name}`} onClick={() => setDeleting(row)} />);
          return items;
        },
      });
    }
    return cols;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [columns, form, props.rowActions, props.canDelete, props.canEdit, describe, props.actionsWidth, perms.change, perms.delete]);

  const columnVisibilityModel = useMemo(
    () => Object.fromEntries(columns.filter((c) => c.hideOnPhone).map((c) => [c.field, !phone])),
    [columns, phone],
  );

  const onExport = async () => {
    setExporting(true);
    try {
      const { page: _p, size: _s, ...rest } = params;
      const name = `${props.exportFilename || plural}-${new Date().toISOString().slice(0, 10)}`;
      if (resource.exportCsv && !clientSide) downloadCsv(name, await resource.exportCsv(rest));
      else downloadCsv(name, toCsv(columns, clientSide ? localRows : await resource.fetchAll(rest)));
    } catch (err) {
      toast.error(isApiError(err) ? err.message : `Failed to export ${plural}`);
    } finally {
      setExporting(false);
    }
  };

  const submitForm = async (values: V) => {
    if (!form || !editing) return;
    if (editing.mode === 'create') {
      const created = await create(form.toCreateBody(values));
      toast.success(`${singular} created successfully`);
      props.onCreated?.(created);
    } else if (editing.row) {
      await update(getRowId(editing.row), form.toUpdateBody(values, editing.row));
      toast.success(`${singular} updated successfully`);
    }
    setEditing(null);
  };

  const emptyText = search || filter ? `No ${plural} match your search.` : `No ${plural} yet.`;

  const canCreate = !!form && allowed('add') && (props.canCreate ?? true);
  const headerActions = (
    <>
      {props.headerActions}
      {resource.config.importPath && canCreate && (
        <Button variant="outlined" startIcon={<UploadFile />} onClick={() => setImporting(true)}>
          Import CSV
        </Button>
      )}
      {props.exportFilename !== false && (
        <Button variant="outlined" startIcon={<Download />} onClick={onExport} disabled={exporting || rowCount === 0}>
          {exporting ? 'Exporting…' : 'Export CSV'}
        </Button>
      )}
      {canCreate && (
        <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ mode: 'create' })}>
          New {singular.toLowerCase()}
        </Button>
      )}
    </>
  );
  const Frame = props.embedded ? SectionFrame : PageBody;
  const gridHeight = props.gridHeight ?? (props.embedded ? 360 : GRID_HEIGHT);

  return (
    <Frame>
      {props.embedded ? (
        <Box component="header" sx={{ display: 'flex', alignItems: { xs: 'flex-start', sm: 'center' }, flexDirection: { xs: 'column', sm: 'row' }, gap: 1, mb: 1.5 }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography component="h2" variant="h6" sx={{ fontWeight: 700 }}>
              {title}
            </Typography>
            {subtitle && (
              <Typography variant="body2" color="text.secondary">
                {subtitle}
              </Typography>
            )}
          </Box>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>{headerActions}</Box>
        </Box>
      ) : (
        <PageHeader title={title} subtitle={subtitle} actions={headerActions} />
      )}
      {props.headerContent}
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Box sx={{ p: 1.5, display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', borderBottom: 1, borderColor: 'divider' }}>
          <TextField
            value={searchInput}
            onChange={(e) => setSearchInput(e.target.value)}
            placeholder={props.searchPlaceholder ?? `Search ${plural}`}
            sx={{ maxWidth: { sm: 320 }, flex: { xs: '1 1 100%', sm: '0 1 320px' } }}
            slotProps={{
              htmlInput: { 'aria-label': props.searchPlaceholder ?? `Search ${plural}`, type: 'search' },
              input: { startAdornment: <InputAdornment position="start"><Search fontSize="small" /></InputAdornment> },
            }}
          />
          <FilterBar
            fields={filters}
            value={filter}
            onChange={(f) => {
              setFilter(f);
              setPagination((p) => ({ ...p, page: 0 }));
            }}
          />
          {props.toolbarExtra}
          <Box sx={{ flex: 1 }} />
          <Typography variant="body2" color="text.secondary" aria-live="polite">
            {list.isLoading ? 'Loading…' : `${rowCount} ${rowCount === 1 ? singular.toLowerCase() : plural}`}
          </Typography>
        </Box>
        {list.error ? (
          <Box sx={{ p: 3 }}>
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => list.refetch()}>
                  Retry
                </Button>
              }
            >
              {list.error.message || `Failed to fetch ${plural}`}
            </Alert>
          </Box>
        ) : (
          <Box sx={{ height: gridHeight, minHeight: props.embedded ? 260 : 380 }}>
            <DataGrid
              rows={rows as object[]}
              columns={gridColumns}
              getRowId={(r) => getRowId(r as T)}
              {...(clientSide ? {} : { rowCount })}
              loading={list.isFetching}
              paginationMode={clientSide ? 'client' : 'server'}
              sortingMode={clientSide ? 'client' : 'server'}
              filterMode="server"
              paginationModel={pagination}
              onPaginationModelChange={setPagination}
              sortModel={sort}
              onSortModelChange={(m) => {
                setSort(m);
                setPagination((p) => ({ ...p, page: 0 }));
              }}
              pageSizeOptions={props.pageSizeOptions ?? Array.from(new Set([10, 25, 50, 100, defaultPageSize])).sort((a, b) => a - b)}
              disableColumnFilter
              disableRowSelectionOnClick
              onRowClick={props.onRowClick ? (p) => props.onRowClick!(p.row as T) : undefined}
              columnVisibilityModel={columnVisibilityModel}
              slots={{ noRowsOverlay: () => <EmptyState text={emptyText} /> }}
              sx={{ border: 0 }}
              localeText={{ noRowsLabel: emptyText }}
            />
          </Box>
        )}
      </Paper>

      {form && editing && (
        <FormDialog<V>
          open
          mode={editing.mode}
          title={editing.mode === 'create' ? `New ${singular.toLowerCase()}` : `Edit ${editing.row ? describe(editing.row) : singular.toLowerCase()}`}
          fields={form.fields}
          initialValues={editing.row ? form.toValues(editing.row) : form.emptyValues}
          onSubmit={submitForm}
          onClose={() => setEditing(null)}
          maxWidth={form.maxWidth}
          validateForm={form.validate}
        />
      )}
      {importing && resource.config.importPath && (
        <CsvImportDialog
          open
          importPath={resource.config.importPath}
          plural={plural}
          singular={singular.toLowerCase()}
          help={props.importHelp}
          onClose={() => setImporting(false)}
          onImported={(r) => {
            toast.success(`Imported ${r.created_rows} ${r.created_rows === 1 ? singular.toLowerCase() : plural}`);
            list.refetch();
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          open
          title={`Delete ${describe(deleting)}?`}
          message={props.deleteMessage?.(deleting) ?? `This permanently deletes the ${singular.toLowerCase()} ${describe(deleting)}. It cannot be undone.`}
          onConfirm={async () => {
            await remove(getRowId(deleting));
            toast.success(`${singular} deleted successfully`);
            setDeleting(null);
          }}
          alternative={(() => {
            const alt = props.deleteAlternative?.(deleting);
            return alt
              ? {
                  label: alt.label,
                  run: async () => {
                    await alt.run();
                    setDeleting(null);
                  },
                }
              : undefined;
          })()}
          onClose={() => setDeleting(null)}
        />
      )}
    </Frame>
  );
}

function SectionFrame({ children }: { children: ReactNode }) {
  return <Box component="section">{children}</Box>;
}

function EmptyState({ text }: { text: string }) {
  return (
    <Box sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 3 }}>
      <Typography color="text.secondary">{text}</Typography>
    </Box>
  );
}
