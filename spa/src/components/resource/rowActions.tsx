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

/** The buttons of one row: edit, the page's actions (icons or '⋮' menu items), delete. */
export function rowActionItems<T>(row: T, o: RowActionsOptions<T>): ReactElement<GridActionsCellItemProps>[] {
  const name = o.describe(row);
  const items: ReactElement<GridActionsCellItemProps>[] = [];
  if (o.onEdit && (o.canEdit?.(row) ?? true)) {
    const edit = o.onEdit;
    items.push(<GridActionsCellItem key="edit" icon={<EditOutlined />} label={`Edit ${name}`} onClick={() => edit(row)} />);
  }
  for (const a of o.actions?.(row) ?? []) {
    if (a.hidden) continue;
    items.push(
      a.showInMenu ? (
        <GridActionsCellItem key={a.label} icon={a.icon} label={a.label} showInMenu onClick={() => a.onClick(row)} />
      ) : (
        <GridActionsCellItem key={a.label} icon={a.icon} label={`${a.label} ${name}`} onClick={() => a.onClick(row)} />
      ),
    );
  }
  if (o.onDelete && (o.canDelete?.(row) ?? true)) {
    const del = o.onDelete;
    items.push(<GridActionsCellItem key="delete" icon={<DeleteOutline />} label={`Delete ${name}`} onClick={() => del(row)} />);
  }
  return items;
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
