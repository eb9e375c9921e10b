import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { DataGrid, type GridColDef, type GridSortModel } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { MOBILE_QUERY } from '@/components/shell/layout';
import type { ApiError } from '@/lib/api/errors';
import type { ListState } from './listState';
import { ResourceCards } from './ResourceCards';
import { rowActionsColumn, type RowActionsOptions } from './rowActions';
import type { ColumnDef, RowId } from './types';

export const PAGE_GRID_HEIGHT = { xs: 'calc(100vh - 400px)', sm: 'calc(100vh - 250px)' };

export interface ResourceTableProps<T> {
  state: ListState;
  columns: readonly ColumnDef<T>[];
  rows: readonly T[];
  /** Rows in the whole list. */
  rowCount: number;
  /** The grid pages and sorts `rows` itself (an 'all' list) instead of the server. */
  clientSide?: boolean;
  loading?: boolean;
  /** Shown instead of the grid, with a Retry button. */
  error?: ApiError;
  onRetry?: () => void;
  /** The 'Actions' column; none when omitted. */
  actions?: RowActionsOptions<T>;
  getRowId?: (row: T) => RowId;
  onRowClick?: (row: T) => void;
  /** 'No customers yet.' / 'No customers match your search.' */
  emptyText: string;
  /** 'customers': the error's fallback text. */
  plural: string;
  pageSizeOptions?: number[];
  /** CSS height of the grid. */
  height?: string | number | Record<string, string | number>;
  minHeight?: number;
  /** Text for the failed list when the error has none. */
  errorText?: string;
}

const defaultRowId = (row: unknown) => (row as { id: RowId }).id;

/** A column's sort state in the grid: the column whose sortField is the list's sort_by. */
export function gridSortModel<T>(state: Pick<ListState, 'sort'>, columns: readonly ColumnDef<T>[]): GridSortModel {
  const col = state.sort ? columns.find((c) => c.sortField === state.sort!.field) : undefined;
  return col && state.sort ? [{ field: col.field, sort: state.sort.order }] : [];
}

/** The list's grid bound to its ListState: page, page size and sort come from and go to the state. */
export function ResourceTable<T>(props: ResourceTableProps<T>) {
  const { state, columns, actions, clientSide = false } = props;
  const phone = useMediaQuery(MOBILE_QUERY);
  const getRowId = props.getRowId ?? defaultRowId;

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
    if (actions) cols.push(rowActionsColumn(actions));
    return cols;
  }, [columns, actions]);

  const columnVisibilityModel = useMemo(() => Object.fromEntries(columns.filter((c) => c.hideOnPhone).map((c) => [c.field, !phone])), [columns, phone]);
  const sortModel = useMemo(() => gridSortModel(state, columns), [state, columns]);
  // The current size is always offered (a link may carry any ?size=).
  const pageSizeOptions = Array.from(new Set([...(props.pageSizeOptions ?? [10, 25, 50, 100]), state.size])).sort((a, b) => a - b);

  if (props.error) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert
          severity="error"
          action={
            props.onRetry && (
              <Button color="inherit" size="small" onClick={props.onRetry}>
                Retry
              </Button>
            )
          }
        >
          {props.error.message || props.errorText || `Failed to fetch ${props.plural}`}
        </Alert>
      </Box>
    );
  }
  const emptyText = props.emptyText;
  if (phone) {
    // A phone gets a card per row: a grid wide enough for its columns put the status off-screen.
    return (
      <ResourceCards<T>
        state={state}
        columns={columns}
        rows={props.rows}
        rowCount={props.rowCount}
        clientSide={clientSide}
        loading={props.loading}
        actions={actions}
        getRowId={getRowId}
        onRowClick={props.onRowClick}
        emptyText={emptyText}
        plural={props.plural}
        pageSizeOptions={pageSizeOptions}
      />
    );
  }
  return (
    <Box sx={{ height: props.height ?? PAGE_GRID_HEIGHT, minHeight: props.minHeight ?? 380 }}>
      <DataGrid
        rows={props.rows}
        columns={gridColumns}
        getRowId={(r) => getRowId(r as T)}
        {...(clientSide ? {} : { rowCount: props.rowCount })}
        loading={props.loading}
        paginationMode={clientSide ? 'client' : 'server'}
        sortingMode={clientSide ? 'client' : 'server'}
        filterMode="server"
        paginationModel={{ page: state.page - 1, pageSize: state.size }}
        onPaginationModelChange={(m) => (m.pageSize !== state.size ? state.setSize(m.pageSize) : state.setPage(m.page + 1))}
        sortModel={sortModel}
        onSortModelChange={(m) => {
          const item = m[0];
          const col = item ? columns.find((c) => c.field === item.field) : undefined;
          state.setSort(col?.sortField && item?.sort ? { field: col.sortField, order: item.sort } : null);
        }}
        pageSizeOptions={pageSizeOptions}
        disableColumnFilter
        disableRowSelectionOnClick
        onRowClick={props.onRowClick ? (p) => props.onRowClick!(p.row as T) : undefined}
        columnVisibilityModel={columnVisibilityModel}
        slots={{ noRowsOverlay: () => <EmptyState text={emptyText} /> }}
        sx={{ border: 0 }}
        localeText={{ noRowsLabel: emptyText }}
      />
    </Box>
  );
}

function EmptyState({ text }: { text: string }) {
  return (
    <Box sx={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 3 }}>
      <Typography color="text.secondary">{text}</Typography>
    </Box>
  );
}
