import Add from '@mui/icons-material/Add';
import Download from '@mui/icons-material/Download';
import UploadFile from '@mui/icons-material/UploadFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { isApiError } from '@/lib/api/errors';
import { downloadCsv, toCsv } from './csv';
import type { ResourceApi } from './resourceApi';
import type { ResourceList } from './useResourceList';
import type { ColumnDef } from './types';

export interface ListHeaderProps {
  title: string;
  subtitle?: ReactNode;
  /** Buttons at the right (ListActions, the page's own). */
  actions?: ReactNode;
  /** A section of another page: an h2, no document title. */
  embedded?: boolean;
}

/** The title row of a list: the page's h1 (and document title), or a section's h2. */
export function ListHeader({ title, subtitle, actions, embedded }: ListHeaderProps) {
  if (!embedded) return <PageHeader title={title} subtitle={subtitle} actions={actions} />;
  return (
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
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>{actions}</Box>
    </Box>
  );
}

/** A list page's frame: page padding, or a bare <section> for a list inside another page. */
export function ListFrame({ embedded, children }: { embedded?: boolean; children: ReactNode }) {
  return embedded ? <Box component="section">{children}</Box> : <PageBody>{children}</PageBody>;
}

/**
 * CSV export of what the list shows (its search, filter, sort and page parameters, every page):
 * the server's export when the resource has one, else the rows fetched page by page.
 */
export function useListExport<T, C, U>(resource: ResourceApi<T, C, U>, list: ResourceList<T>, o: { columns: readonly ColumnDef<T>[]; filename: string; plural: string }) {
  const { columns, filename, plural } = o;
  const [exporting, setExporting] = useState(false);
  const run = async () => {
    setExporting(true);
    try {
      const { page: _p, size: _s, ...rest } = list.params;
      const name = `${filename}-${new Date().toISOString().slice(0, 10)}`;
      if (resource.exportCsv && !list.clientSide) downloadCsv(name, await resource.exportCsv(rest));
      else downloadCsv(name, toCsv(columns, list.clientSide ? list.rows : await resource.fetchAll(rest)));
    } catch (err) {
      toast.error(isApiError(err) ? err.message : `Failed to export ${plural}`);
    } finally {
      setExporting(false);
    }
  };
  return { exporting, run };
}

export interface ListActionsProps {
  singular: string;
  /** 'Import CSV' when given. */
  onImport?: () => void;
  /** 'Export CSV' when given; disabled while running or when the list is empty. */
  onExport?: () => void;
  exporting?: boolean;
  empty?: boolean;
  /** 'New …' when given. */
  onCreate?: () => void;
  /** The page's own buttons, first. */
  children?: ReactNode;
}

/** The buttons of a list's title row: the page's own, Import CSV, Export CSV, New …. */
export function ListActions({ singular, onImport, onExport, exporting, empty, onCreate, children }: ListActionsProps) {
  return (
    <>
      {children}
      {onImport && (
        <Button variant="outlined" startIcon={<UploadFile />} onClick={onImport}>
          Import CSV
        </Button>
      )}
      {onExport && (
        <Button variant="outlined" startIcon={<Download />} onClick={onExport} disabled={exporting || empty}>
          {exporting ? 'Exporting…' : 'Export CSV'}
        </Button>
      )}
      {onCreate && (
        <Button variant="contained" startIcon={<Add />} onClick={onCreate}>
          New {singular.toLowerCase()}
        </Button>
      )}
    </>
  );
}
