import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import Typography from '@mui/material/Typography';
import { DndContext, DragOverlay, PointerSensor, useDraggable, useSensor, useSensors, type DragEndEvent, type DragStartEvent } from '@dnd-kit/core';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { useAuthedObjectUrl } from '@/components/common/useAuthedObjectUrl';
import { isApiError } from '@/lib/api/errors';
import { withStyleNonce } from '@/lib/csp/nonce';
import { useAppSelector } from '@/lib/session/hooks';
import { DesignerCanvas } from './DesignerCanvas';
import { PropertiesPanel } from './PropertiesPanel';
import {
  designerReducer,
  findComponent,
  initialState,
  toPayload,
  type Component,
  type DocType,
  type DraftTemplate,
} from './designerModel';
import {
  renderPdf,
  saveBlob,
  useCreateTemplateMutation,
  useDeleteTemplateMutation,
  useGetContractQuery,
  useListTemplatesQuery,
  useRenderTemplateMutation,
  useListDocumentSourcesQuery,
  useSetDefaultTemplateMutation,
  useUpdateTemplateMutation,
  type TemplateOut,
} from './documentsApi';

const DOC_TYPES: { value: DocType; label: string }[] = [
  { value: 'invoice', label: 'Invoice' },
  { value: 'delivery_ticket', label: 'Delivery ticket' },
  { value: 'sales_order', label: 'Sales order' },
];

const errorText = (e: unknown, fallback: string) => (isApiError(e) ? e.message : fallback);

function toDraft(t: TemplateOut): DraftTemplate {
  return { id: t.id, name: t.name, type: t.type as DocType, components: t.components, canvasSettings: t.canvasSettings, isDefault: t.isDefault };
}

interface PaletteEntry {
  key: string;
  label: string;
  component: Partial<Component> & { type: Component['type'] };
}

function PaletteItem({ entry, onAdd }: { entry: PaletteEntry; onAdd: (e: PaletteEntry) => void }) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: `palette:${entry.key}`, data: { kind: 'palette', entry } });
  return (
    <Chip
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      label={entry.label}
      size="small"
      variant="outlined"
      onClick={() => onAdd(entry)}
      data-palette={entry.key}
      sx={{ cursor: 'grab', opacity: isDragging ? 0.4 : 1, touchAction: 'none', maxWidth: '100%' }}
    />
  );
}

export default function DesignerPage() {
  const [docType, setDocType] = useState<DocType>('invoice');
  const [state, dispatch] = useReducer(designerReducer, undefined, () => initialState());
  const templates = useListTemplatesQuery({ type: docType });
  const contract = useGetContractQuery(docType);
  const [createTemplate, creating] = useCreateTemplateMutation();
  const [updateTemplate, updating] = useUpdateTemplateMutation();
  const [deleteTemplate] = useDeleteTemplateMutation();
  const [setDefault, settingDefault] = useSetDefaultTemplateMutation();
  const [renderHtml, rendering] = useRenderTemplateMutation();
  const [previewHtml, setPreviewHtml] = useState<string | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  // Preview with the sample data (0) or with a real document of the type (its id).
  const [sourceId, setSourceId] = useState<number>(0);
  const sources = useListDocumentSourcesQuery({ type: docType });
  const [dragging, setDragging] = useState<PaletteEntry | null>(null);
  const [downloading, setDownloading] = useState(false);
  const canvasEl = useRef<HTMLDivElement | null>(null);
  const areaRef = useRef<HTMLDivElement | null>(null);
  const [areaWidth, setAreaWidth] = useState(800);
  const settings = useAppSelector((s) => s.session.settings);
  const logoUrl = useAuthedObjectUrl(settings?.logo?.[0]?.file_url ?? null);
  const { template, selectedId, preview } = state;
  const selected = findComponent(template.components, selectedId);

  // Open the type's default template when the list arrives (or when the type changes).
  const loadedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!templates.data || loadedFor.current === docType) return;
    const first = templates.data.find((t) => t.isDefault) ?? templates.data[0];
    loadedFor.current = docType;
    if (first) dispatch({ type: 'load', template: toDraft(first) });
    else dispatch({ type: 'new', docType });
  }, [templates.data, docType]);

  useEffect(() => {
    const el = areaRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const obs = new ResizeObserver(([entry]) => entry && setAreaWidth(entry.contentRect.width));
    obs.observe(el);
    return () => obs.disconnect();
  }, []);
  const scale = Math.min(1, Math.max(0.3, (areaWidth - 8) / template.canvasSettings.width));
  // The preview page sits in a 20 px margin on each side.
  const previewScale = Math.min(1, Math.max(0.3, (areaWidth - 8) / (template.canvasSettings.width + 40)));

  const labels = useMemo(() => new Map((contract.data?.variables ?? []).map((v) => [v.variableName, v.label])), [contract.data]);
  const labelOf = useCallback((v: string) => labels.get(v) ?? v, [labels]);

  const palette = useMemo(() => {
    const vars = contract.data?.variables ?? [];
    const fields: PaletteEntry[] = vars
      .filter((v) => v.fieldType !== 'image')
      .map((v) => ({ key: `field:${v.variableName}`, label: v.label, component: { type: 'sales-order-field', variableName: v.variableName, label: v.label } }));
    const images: PaletteEntry[] = vars
      .filter((v) => v.fieldType === 'image')
      .map((v) => ({ key: `image:${v.variableName}`, label: v.label, component: { type: 'image', variableName: v.variableName, label: v.label } }));
    const tables: PaletteEntry[] = Object.entries(contract.data?.tables ?? {}).map(([t, cols]) => ({
      key: `table:${t}`,
      label: `Table: ${t.replace('_', ' ')}`,
      component: { type: 'sales-order-table', tableType: t as Component['tableType'], columns: cols.slice(0, 5).map((c) => ({ key: c.key, label: c.label })) },
    }));
    const layout: PaletteEntry[] = [
      { key: 'text', label: 'Text', component: { type: 'text', content: 'Text' } },
      { key: 'line', label: 'Line', component: { type: 'line' } },
      { key: 'box', label: 'Box', component: { type: 'box', style: { border: '1px solid #cbd2d9' } } },
      { key: 'container', label: 'Container', component: { type: 'container' } },
    ];
    return { Layout: layout, Images: images, Tables: tables, Fields: fields };
  }, [contract.data]);

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));
  const onDragStart = (e: DragStartEvent) => {
    const data = e.active.data.current as { kind: string; entry?: PaletteEntry } | undefined;
    setDragging(data?.kind === 'palette' && data.entry ? data.entry : null);
  };
  const onDragEnd = (e: DragEndEvent) => {
    setDragging(null);
    const data = e.active.data.current as { kind: string; id?: string; entry?: PaletteEntry } | undefined;
    if (!data) return;
    if (data.kind === 'palette' && data.entry) {
      // The new component's top-left corner goes where the pointer let go.
      const start = e.activatorEvent as PointerEvent | null;
      const canvasRect = canvasEl.current?.getBoundingClientRect();
      if (!start || !canvasRect || !e.over) return;
      const x = (start.clientX + e.delta.x - canvasRect.left) / scale;
      const y = (start.clientY + e.delta.y - canvasRect.top) / scale;
      dispatch({ type: 'add', component: data.entry.component, position: { x, y } });
      return;
    }
    if (data.kind === 'component' && data.id) {
      const c = findComponent(template.components, data.id);
      if (!c) return;
      dispatch({ type: 'move', id: c.id, x: (c.position?.x ?? 0) + e.delta.x / scale, y: (c.position?.y ?? 0) + e.delta.y / scale });
      const overId = e.over ? String(e.over.id) : '';
      if (overId.startsWith('container:') && c.type !== 'container' && overId !== `container:${c.parentId}`) {
        dispatch({ type: 'addToContainer', id: c.id, containerId: overId.slice('container:'.length) });
      }
    }
  };
  const addAtDefault = (entry: PaletteEntry) => dispatch({ type: 'add', component: entry.component, position: { x: 40, y: 40 } });

  // Preview mode shows the server's HTML of the current (unsaved) template: exactly what prints.
  const showPreview = async (on: boolean, source: number = sourceId) => {
    dispatch({ type: 'preview', on });
    if (!on) return;
    setPreviewError(null);
    try {
      setPreviewHtml(await renderHtml({ ...toPayload(template), sourceId: source || null }).unwrap());
    } catch (err) {
      setPreviewError(errorText(err, 'The preview could not be rendered.'));
    }
  };

  const save = async (): Promise<DraftTemplate | null> => {
    try {
      const body = toPayload(template);
      const saved = template.id
        ? await updateTemplate({ id: template.id, body: { name: body.name, components: body.components, canvasSettings: body.canvasSettings } }).unwrap()
        : await createTemplate(body).unwrap();
      dispatch({ type: 'saved', id: saved.id, isDefault: saved.isDefault });
      toast.success(template.id ? 'Template updated successfully' : 'Template created successfully');
      return toDraft(saved);
    } catch (err) {
      toast.error(errorText(err, 'Failed to save template'));
      return null;
    }
  };

  const makeDefault = async () => {
    const saved = state.dirty || !template.id ? await save() : template;
    if (!saved?.id) return;
    try {
      const res = await setDefault(saved.id).unwrap();
      dispatch({ type: 'saved', id: res.template.id, isDefault: true });
      toast.success(res.message);
    } catch (err) {
      toast.error(errorText(err, 'Failed to set the default template'));
    }
  };

  const exportHtml = async () => {
    try {
      const html = await renderHtml(toPayload(template)).unwrap();
      saveBlob(new Blob([html], { type: 'text/html' }), `${template.name || 'template'}.html`);
    } catch (err) {
      toast.error(errorText(err, 'Failed to export the template'));
    }
  };

  const downloadPdf = async () => {
    setDownloading(true);
    try {
      saveBlob(await renderPdf(toPayload(template), sourceId || null), `${template.name || 'template'}.pdf`);
    } catch (err) {
      toast.error(errorText(err, 'Failed to render the PDF'));
    } finally {
      setDownloading(false);
    }
  };

  const removeTemplate = async () => {
    if (!template.id) {
      dispatch({ type: 'new', docType });
      return;
    }
    try {
      await deleteTemplate(template.id).unwrap();
      toast.success('Template deleted successfully');
      loadedFor.current = null;
    } catch (err) {
      toast.error(errorText(err, 'Failed to delete template'));
    }
  };

  const busy = creating.isLoading || updating.isLoading;
  return (
    <PageBody>
      <PageHeader
        title="Template Designer"
        subtitle="Design the printable invoice, delivery ticket and sales order: drag fields onto the page, preview exactly what prints, and choose the default per document type."
      />
      <Paper variant="outlined" sx={{ p: 1.5, mb: 2, display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <TextField select size="small" fullWidth={false} label="Document" value={docType} sx={{ minWidth: 160 }} onChange={(e) => { loadedFor.current = null; setSourceId(0); setDocType(e.target.value as DocType); }}>
          {DOC_TYPES.map((d) => (
            <MenuItem key={d.value} value={d.value}>{d.label}</MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          fullWidth={false}
          label="Template"
          value={template.id ?? ''}
          sx={{ minWidth: 220 }}
          onChange={(e) => {
            const t = templates.data?.find((x) => x.id === Number(e.target.value));
            if (t) dispatch({ type: 'load', template: toDraft(t) });
          }}
        >
          {(templates.data ?? []).map((t) => (
            <MenuItem key={t.id} value={t.id}>{t.name}{t.isDefault ? ' (default)' : ''}</MenuItem>
          ))}
        </TextField>
        <TextField size="small" fullWidth={false} label="Name" value={template.name} onChange={(e) => dispatch({ type: 'rename', name: e.target.value })} sx={{ minWidth: 200 }} />
        {template.isDefault && <Chip color="success" size="small" label="Default" data-testid="default-chip" />}
        {state.dirty && <Chip size="small" label="Unsaved changes" />}
        <Box sx={{ flex: 1 }} />
        <Button size="small" onClick={() => dispatch({ type: 'new', docType })}>New</Button>
        <Button size="small" disabled={!state.past.length} onClick={() => dispatch({ type: 'undo' })}>Undo</Button>
        <Button size="small" disabled={!state.future.length} onClick={() => dispatch({ type: 'redo' })}>Redo</Button>
        <TextField
          select
          size="small"
          fullWidth={false}
          label="Preview with"
          value={sourceId}
          sx={{ minWidth: 200 }}
          id="preview-source"
          onChange={(e) => {
            const next = Number(e.target.value);
            setSourceId(next);
            if (preview) void showPreview(true, next);
          }}
        >
          <MenuItem value={0}>Sample data</MenuItem>
          {(sources.data ?? []).map((d) => (
            <MenuItem key={d.id} value={d.id}>{d.label}</MenuItem>
          ))}
        </TextField>
        <ToggleButton size="small" value="preview" selected={preview} onChange={() => void showPreview(!preview)}>Preview</ToggleButton>
        <Button size="small" onClick={() => void exportHtml()}>Export HTML</Button>
        <Button size="small" disabled={downloading} onClick={() => void downloadPdf()}>{downloading ? 'Rendering…' : 'PDF'}</Button>
        <Button size="small" color="error" onClick={() => void removeTemplate()} disabled={template.isDefault}>Delete</Button>
        <Button size="small" variant="outlined" disabled={settingDefault.isLoading || template.isDefault} onClick={() => void makeDefault()}>Set as default</Button>
        <Button size="small" variant="contained" disabled={busy} onClick={() => void save()}>{busy ? 'Saving…' : 'Save'}</Button>
      </Paper>
      {templates.isError && <Alert severity="error" sx={{ mb: 2 }}>{errorText(templates.error, 'Failed to fetch templates')}</Alert>}
      <DndContext sensors={sensors} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={() => setDragging(null)}>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '220px minmax(0, 1fr) 280px' }, gap: 2, alignItems: 'start' }}>
          <Paper variant="outlined" sx={{ p: 1.5, order: { xs: 2, lg: 1 }, maxHeight: { lg: '80vh' }, overflow: 'auto' }} aria-label="Components">
            <Typography variant="subtitle2" sx={{ mb: 1 }}>Components</Typography>
            <Typography variant="caption" color="text.secondary">Drag onto the page, or click to add.</Typography>
            {Object.entries(palette).map(([group, entries]) =>
              entries.length ? (
                <Box key={group} sx={{ mt: 1.5 }}>
                  <Typography variant="overline" color="text.secondary">{group}</Typography>
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                    {entries.map((entry) => (
                      <PaletteItem key={entry.key} entry={entry} onAdd={addAtDefault} />
                    ))}
                  </Box>
                </Box>
              ) : null,
            )}
          </Paper>
          <Box ref={areaRef} sx={{ order: { xs: 1, lg: 2 }, overflow: 'auto', minWidth: 0, bgcolor: '#eceff1', p: 0.5, borderRadius: 1 }}>
            {preview ? (
              <Box data-testid="designer-preview">
                {rendering.isLoading && <Box sx={{ p: 4, textAlign: 'center' }}><CircularProgress size={28} /></Box>}
                {previewError && <Alert severity="error">{previewError}</Alert>}
                {previewHtml && !rendering.isLoading && (
                  <Box sx={{ width: (template.canvasSettings.width + 40) * previewScale, height: (template.canvasSettings.height + 40) * previewScale, overflow: 'hidden' }}>
                    <Box
                      component="iframe"
                      title="Print preview"
                      sandbox=""
                      srcDoc={withStyleNonce(previewHtml)}
                      sx={{ border: 0, width: template.canvasSettings.width + 40, height: template.canvasSettings.height + 40, transform: `scale(${previewScale})`, transformOrigin: 'top left', bgcolor: '#eceff1' }}
                    />
                  </Box>
                )}
              </Box>
            ) : (
              <DesignerCanvas
                components={template.components}
                canvas={template.canvasSettings}
                scale={scale}
                selectedId={selectedId}
                logoUrl={logoUrl}
                labelOf={labelOf}
                dispatch={dispatch}
                canvasRef={(el) => {
                  canvasEl.current = el;
                }}
              />
            )}
          </Box>
          <Paper variant="outlined" sx={{ p: 1.5, order: 3 }} aria-label="Properties">
            {selected && !preview ? (
              <PropertiesPanel component={selected} components={template.components} contract={contract.data} dispatch={dispatch} />
            ) : (
              <>
                <Typography variant="subtitle2">Page</Typography>
                <TextField select size="small" fullWidth label="Paper" sx={{ mt: 1 }} value={template.canvasSettings.pageSize} onChange={(e) => dispatch({ type: 'canvas', patch: { pageSize: e.target.value as 'A4' | 'Letter' } })}>
                  <MenuItem value="A4">A4 (794 × 1123)</MenuItem>
                  <MenuItem value="Letter">Letter (816 × 1056)</MenuItem>
                </TextField>
                <Divider sx={{ my: 1.5 }} />
                <Typography variant="body2" color="text.secondary">
                  {template.components.length} components. Select one to edit it. Preview shows the page rendered by the server with the sample data or a real document (Preview with), as it prints.
                </Typography>
              </>
            )}
          </Paper>
        </Box>
        <DragOverlay dropAnimation={null}>{dragging ? <Chip label={dragging.label} color="primary" size="small" /> : null}</DragOverlay>
      </DndContext>
    </PageBody>
  );
}
