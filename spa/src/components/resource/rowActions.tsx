import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { GridActionsCellItem, type GridActionsCellItemProps, type GridColDef } from '@mui/x-data-grid';
import type { ReactElement } from 'react';

export interface RowAction<T> {
  label: string;
  icon: ReactElement;
  onClick: (row: T) => void;
  hidden?: boolean;
  /** In the row's '⋮' menu instead of an icon button. */
  showInMenu?: boolean;
}

export interface RowActionsOptions<T> {
  /** The row's name in the buttons' accessible labels ('Edit Ann'). */
  describe: (row: T) => string;
  /** Shows 'Edit' first when given and allowed for the row. */
  onEdit?: (row: T) => void;
  canEdit?: (row: T) => boolean;
  /** Shows 'Delete' last when given and allowed for the row. */
  onDelete?: (row: T) => void;
  canDelete?: (row: T) => boolean;
  /** The page's own actions, between edit and delete. */
  actions?: (row: T) => RowAction<T>[];
  width?: number;
}

/** One button of a row, as data: the grid's cell and the phone's card draw it each their way. */
export interface RowActionItem {
  key: string;
  /** The accessible label ('Edit Ann'; a menu item's own label). */
  label: string;
  icon: ReactElement;
  showInMenu: boolean;
  onClick: () => void;
}

/** The buttons of one row, in order: edit, the page's actions (icons or '⋮' menu items), delete. */
export function rowActionList<T>(row: T, o: RowActionsOptions<T>): RowActionItem[] {
  const name = o.describe(row);
  const items: RowActionItem[] = [];
  if (o.onEdit && (o.canEdit?.(row) ?? true)) {
    const edit = o.onEdit;
    items.push({ key: 'edit', icon: <EditOutlined />, label: `Edit ${name}`, showInMenu: false, onClick: () => edit(row) });
  }
  for (const a of o.actions?.(row) ?? []) {
    if (a.hidden) continue;
    const showInMenu = !!a.showInMenu;
    items.push({ key: a.label, icon: a.icon, label: showInMenu ? a.label : `${a.label} ${name}`, showInMenu, onClick: () => a.onClick(row) });
  }
  if (o.onDelete && (o.canDelete?.(row) ?? true)) {
    const del = o.onDelete;
    items.push({ key: 'delete', icon: <DeleteOutline />, label: `Delete ${name}`, showInMenu: false, onClick: () => del(row) });
  }
  return items;
}

/** The grid cell's buttons of one row. */
export function rowActionItems<T>(row: T, o: RowActionsOptions<T>): ReactElement<GridActionsCellItemProps>[] {
  return rowActionList(row, o).map((a) =>
    a.showInMenu ? (
      <GridActionsCellItem key={a.key} icon={a.icon} label={a.label} showInMenu onClick={a.onClick} />
    ) : (
      <GridActionsCellItem key={a.key} icon={a.icon} label={a.label} onClick={a.onClick} />
    ),
  );
}

/** The grid's 'Actions' column for these options. */
export function rowActionsColumn<T>(o: RowActionsOptions<T>): GridColDef {
  return {
    field: '__actions',
    type: 'actions',
    headerName: 'Actions',
    width: o.width ?? 130,
    getActions: (p) => rowActionItems(p.row as T, o),
  };
}
