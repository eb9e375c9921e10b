import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { toast } from 'react-toastify';
import { ConfirmDialog } from './ConfirmDialog';
import { CsvImportDialog } from './CsvImportDialog';
import { FormDialog } from './FormDialog';
import type { FieldDef, FormMode } from './formTypes';
import type { ResourceApi } from './resourceApi';
import type { RowId } from './types';

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

/** Which dialog of a list is open: the form (create or edit a row), the delete confirmation, the import. */
export interface ListDialogs<T> {
  editing: { mode: FormMode; row?: T } | null;
  deleting: T | null;
  importing: boolean;
  openCreate: () => void;
  openEdit: (row: T) => void;
  openDelete: (row: T) => void;
  openImport: () => void;
  close: () => void;
}

export function useListDialogs<T>(): ListDialogs<T> {
  const [editing, setEditing] = useState<{ mode: FormMode; row?: T } | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const [importing, setImporting] = useState(false);
  const openEdit = useCallback((row: T) => setEditing({ mode: 'edit', row }), []);
  const openDelete = useCallback((row: T) => setDeleting(row), []);
  const openers = useMemo(
    () => ({
      openCreate: () => setEditing({ mode: 'create' }),
      openImport: () => setImporting(true),
      close: () => {
        setEditing(null);
        setDeleting(null);
        setImporting(false);
      },
    }),
    [],
  );
  return { editing, deleting, importing, openEdit, openDelete, ...openers };
}

const defaultRowId = (row: unknown) => (row as { id: RowId }).id;

export interface ResourceFormDialogProps<T, V, C, U> {
  resource: ResourceApi<T, C, U>;
  form: ResourceFormConfig<T, V, C, U>;
  /** Create when `row` is absent, else edit it. */
  mode: FormMode;
  row?: T;
  singular: string;
  describe: (row: T) => string;
  getRowId?: (row: T) => RowId;
  onClose: () => void;
  onCreated?: (row: T) => void;
}

/** The create / edit form of a resource: saves through its API, toasts, closes; 422s land on the fields. */
export function ResourceFormDialog<T, V, C, U>({ resource, form, mode, row, singular, describe, getRowId = defaultRowId, onClose, onCreated }: ResourceFormDialogProps<T, V, C, U>) {
  const [create] = resource.useCreate();
  const [update] = resource.useUpdate();
  const submit = async (values: V) => {
    if (mode === 'create') {
      const created = await create(form.toCreateBody(values));
      toast.success(`${singular} created successfully`);
      onCreated?.(created);
    } else if (row) {
      await update(getRowId(row), form.toUpdateBody(values, row));
      toast.success(`${singular} updated successfully`);
    }
    onClose();
  };
  return (
    <FormDialog<V>
      open
      mode={mode}
      title={mode === 'create' ? `New ${singular.toLowerCase()}` : `Edit ${row ? describe(row) : singular.toLowerCase()}`}
      fields={form.fields}
      initialValues={row ? form.toValues(row) : form.emptyValues}
      onSubmit={submit}
      onClose={onClose}
      maxWidth={form.maxWidth}
      validateForm={form.validate}
    />
  );
}

export interface ResourceDeleteDialogProps<T, C, U> {
  resource: ResourceApi<T, C, U>;
  row: T;
  singular: string;
  describe: (row: T) => string;
  getRowId?: (row: T) => RowId;
  /** The confirmation text; defaults to 'This permanently deletes …'. */
  message?: ReactNode;
  /** Offered when the server refuses with 409 (e.g. deactivate instead). */
  alternative?: { label: string; run: () => Promise<unknown> };
  onClose: () => void;
}

/** Confirms and deletes one row; a 409 shows the server's sentence and the alternative, if any. */
export function ResourceDeleteDialog<T, C, U>({ resource, row, singular, describe, getRowId = defaultRowId, message, alternative, onClose }: ResourceDeleteDialogProps<T, C, U>) {
  const [remove] = resource.useRemove();
  const name = describe(row);
  return (
    <ConfirmDialog
      open
      title={`Delete ${name}?`}
      message={message ?? `This permanently deletes the ${singular.toLowerCase()} ${name}. It cannot be undone.`}
      onConfirm={async () => {
        await remove(getRowId(row));
        toast.success(`${singular} deleted successfully`);
        onClose();
      }}
      alternative={
        alternative && {
          label: alternative.label,
          run: async () => {
            await alternative.run();
            onClose();
          },
        }
      }
      onClose={onClose}
    />
  );
}

export interface ResourceImportDialogProps<T, C, U> {
  resource: ResourceApi<T, C, U>;
  singular: string;
  plural: string;
  /** The columns the file may have. */
  help?: ReactNode;
  /** After the rows were written (e.g. refetch the list). */
  onImported?: () => void;
  onClose: () => void;
}

/** The CSV import of a resource that has an importPath (upload, preview, confirm, progress). */
export function ResourceImportDialog<T, C, U>({ resource, singular, plural, help, onImported, onClose }: ResourceImportDialogProps<T, C, U>) {
  const importPath = resource.config.importPath;
  if (!importPath) return null;
  return (
    <CsvImportDialog
      open
      importPath={importPath}
      plural={plural}
      singular={singular.toLowerCase()}
      help={help}
      onClose={onClose}
      onImported={(r) => {
        toast.success(`Imported ${r.created_rows} ${r.created_rows === 1 ? singular.toLowerCase() : plural}`);
        onImported?.();
      }}
    />
  );
}
