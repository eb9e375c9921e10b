import MoreVert from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type MouseEvent, type ReactNode } from 'react';
import type { ListState } from './listState';
import { rowActionList, type RowActionItem, type RowActionsOptions } from './rowActions';
import type { ColumnDef, RowId } from './types';
import { toText } from '@/lib/text';

const STATUS_FIELD = /(^|_)status$|^is_active$/;

/** Which column heads the card, which sits beside it as the status, and the labelled rest. */
export function cardLayout<T>(columns: readonly ColumnDef<T>[]): { title?: ColumnDef<T>; status?: ColumnDef<T>; rest: ColumnDef<T>[] } {
  const shown = columns.filter((c) => !c.hideOnPhone);
  const status = shown.find((c) => c.card === 'status') ?? shown.find((c) => c.card !== 'title' && STATUS_FIELD.test(c.field));
  const title = shown.find((c) => c.card === 'title') ?? shown.find((c) => c !== status);
  return { title, status, rest: shown.filter((c) => c !== title && c !== status) };
}

function cell<T>(c: ColumnDef<T>, row: T): ReactNode {
  if (c.render) return c.render(row);
  const v = c.value ? c.value(row) : (row as Record<string, unknown>)[c.field];
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  return toText(v);
}

export interface ResourceCardsProps<T> {
  state: ListState;
  columns: readonly ColumnDef<T>[];
  rows: readonly T[];
  rowCount: number;
  clientSide: boolean;
  loading?: boolean;
  actions?: RowActionsOptions<T>;
  getRowId: (row: T) => RowId;
  onRowClick?: (row: T) => void;
  emptyText: string;
  plural: string;
  pageSizeOptions: number[];
}

/**
 * A list on a phone: one card per row with its key fields and its status in view (a wide grid put
 * the status column off-screen), a sort choice in place of the column headers, and the grid's pager.
 */
export function ResourceCards<T>(props: ResourceCardsProps<T>) {
  const { state, columns, actions, getRowId, onRowClick } = props;
  const { title, status, rest } = cardLayout(columns);
  const rows = props.clientSide ? props.rows.slice((state.page - 1) * state.size, state.page * state.size) : props.rows;
  const sortable = columns.filter((c) => c.sortField);
  const sortValue = state.sort ? `${state.sort.field}:${state.sort.order}` : '';

  return (
    <Box data-testid="list-cards">
      {sortable.length > 0 && (
        <Box sx={{ px: 1.5, pt: 1 }}>
          <TextField
            select
            size="small"
            fullWidth
            label="Sort by"
            value={sortValue}
            onChange={(e) => {
              const [field, order] = e.target.value.split(':');
              state.setSort(field ? { field, order: order === 'desc' ? 'desc' : 'asc' } : null);
            }}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          >
            <option value="">Default order</option>
            {sortable.flatMap((c) => [
              <option key={`${c.sortField}:asc`} value={`${c.sortField}:asc`}>{`${c.headerName} ↑`}</option>,
              <option key={`${c.sortField}:desc`} value={`${c.sortField}:desc`}>{`${c.headerName} ↓`}</option>,
            ])}
          </TextField>
        </Box>
      )}
      <Box sx={{ height: 4 }}>{props.loading && <LinearProgress aria-label={`Loading ${props.plural}`} />}</Box>
      {rows.length === 0 && !props.loading ? (
        <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
          {props.emptyText}
        </Typography>
      ) : (
        <Box component="ul" aria-label={props.plural} sx={{ listStyle: 'none', m: 0, px: 1.5, py: 0.5, display: 'flex', flexDirection: 'column', gap: 1 }}>
          {rows.map((row) => (
            <RowCard key={getRowId(row)} row={row} title={title} status={status} rest={rest} actions={actions} onRowClick={onRowClick} />
          ))}
        </Box>
      )}
      <TablePagination
        component="div"
        count={props.rowCount}
        page={Math.max(0, Math.min(state.page - 1, Math.max(0, Math.ceil(props.rowCount / state.size) - 1)))}
        rowsPerPage={state.size}
        rowsPerPageOptions={props.pageSizeOptions}
        onPageChange={(_e, p) => state.setPage(p + 1)}
        onRowsPerPageChange={(e) => state.setSize(Number(e.target.value))}
        labelRowsPerPage="Rows"
        sx={{ '& .MuiTablePagination-toolbar': { px: 1 }, '& .MuiTablePagination-selectLabel, & .MuiTablePagination-input': { ml: 0 } }}
      />
    </Box>
  );
}

interface RowCardProps<T> {
  row: T;
  title?: ColumnDef<T>;
  status?: ColumnDef<T>;
  rest: ColumnDef<T>[];
  actions?: RowActionsOptions<T>;
  onRowClick?: (row: T) => void;
}

function RowCard<T>({ row, title, status, rest, actions, onRowClick }: RowCardProps<T>) {
  const items = actions ? rowActionList(row, actions) : [];
  const heading = title ? cell(title, row) : null;
  return (
    <Box
      component="li"
      data-testid="list-card"
      onClick={onRowClick ? () => onRowClick(row) : undefined}
      sx={{
        border: 1, borderColor: 'divider', borderRadius: 1.5, p: 1.25, bgcolor: 'background.paper',
        cursor: onRowClick ? 'pointer' : undefined, '&:hover': onRowClick ? { borderColor: 'primary.main' } : undefined,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <Box sx={{ flex: 1, minWidth: 0, fontWeight: 700, overflowWrap: 'anywhere' }}>
          {onRowClick ? (
            // The card is clickable; its title is the keyboard's way in.
            <ButtonBase onClick={(e) => { e.stopPropagation(); onRowClick(row); }} sx={{ font: 'inherit', textAlign: 'left', justifyContent: 'flex-start', borderRadius: 0.5 }}>
              {heading}
            </ButtonBase>
          ) : (
            heading
          )}
        </Box>
        {status && (
          <Box data-testid="card-status" aria-label={status.headerName} sx={{ flexShrink: 0 }}>
            {cell(status, row)}
          </Box>
        )}
      </Box>
      {rest.length > 0 && (
        <Box component="dl" sx={{ m: 0, mt: 0.75, display: 'grid', gridTemplateColumns: 'minmax(84px, 38%) 1fr', columnGap: 1, rowGap: 0.25, fontSize: 14 }}>
          {rest.map((c) => (
            <Box key={c.field} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {c.headerName}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
                {cell(c, row)}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
      {items.length > 0 && <CardActions items={items} />}
    </Box>
  );
}

function CardActions({ items }: { items: RowActionItem[] }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const inMenu = items.filter((a) => a.showInMenu);
  // A button (or the menu) does its own thing; the row's empty space still opens the row.
  const stop = (e: MouseEvent) => {
    if (e.target !== e.currentTarget) e.stopPropagation();
  };
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 0.5, mt: 0.5 }} onClick={stop}>
      {items
        .filter((a) => !a.showInMenu)
        .map((a) => (
          <IconButton key={a.key} aria-label={a.label} title={a.label} onClick={a.onClick} sx={{ width: 44, height: 44 }}>
            {a.icon}
          </IconButton>
        ))}
      {inMenu.length > 0 && (
        <>
          <IconButton aria-label="More actions" aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)} sx={{ width: 44, height: 44 }}>
            <MoreVert />
          </IconButton>
          <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
            {inMenu.map((a) => (
              <MenuItem
                key={a.key}
                onClick={() => {
                  setAnchor(null);
                  a.onClick();
                }}
              >
                <ListItemIcon>{a.icon}</ListItemIcon>
                {a.label}
              </MenuItem>
            ))}
          </Menu>
        </>
      )}
    </Box>
  );
}
