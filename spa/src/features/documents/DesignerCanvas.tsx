import Box from '@mui/material/Box';
import { useDraggable, useDroppable } from '@dnd-kit/core';
import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import type { CanvasSettings, Component, DesignerAction } from './designerModel';

interface CanvasProps {
  components: Component[];
  canvas: CanvasSettings;
  scale: number;
  selectedId: string | null;
  logoUrl: string | null;
  labelOf: (variableName: string) => string;
  dispatch: (a: DesignerAction) => void;
  canvasRef: (el: HTMLDivElement | null) => void;
}

/** The A4 (or Letter) sheet with its components, where they are dragged, resized and selected. */
export function DesignerCanvas({ components, canvas, scale, selectedId, logoUrl, labelOf, dispatch, canvasRef }: CanvasProps) {
  const { setNodeRef } = useDroppable({ id: 'canvas' });
  const pad = canvas.padding ?? { top: 20, right: 20, bottom: 20, left: 20 };
  // A container's children sit just above it, whatever their own layer.
  const byId = new Map(components.map((c) => [c.id, c]));
  const layer = (c: Component) => {
    const parent = c.parentId ? byId.get(c.parentId) : undefined;
    return parent ? (parent.zIndex ?? 1) * 2 + 1 : (c.zIndex ?? 1) * 2;
  };
  const ordered = [...components].sort((a, b) => layer(a) - layer(b));
  return (
    <Box sx={{ width: canvas.width * scale, height: canvas.height * scale, flexShrink: 0 }}>
      <Box
        ref={(el: HTMLDivElement | null) => {
          setNodeRef(el);
          canvasRef(el);
        }}
        data-testid="designer-canvas"
        onPointerDown={(e) => {
          if (e.target === e.currentTarget) dispatch({ type: 'select', id: null });
        }}
        sx={{
          position: 'relative',
          width: canvas.width,
          height: canvas.height,
          transform: `scale(${scale})`,
          transformOrigin: 'top left',
          bgcolor: canvas.backgroundColor || '#fff',
          boxShadow: '0 1px 6px rgba(0,0,0,.25)',
          fontFamily: "'DejaVu Sans', Helvetica, Arial, sans-serif",
          fontSize: 11,
          color: '#1f2933',
        }}
      >
        {/* The padding guide: what stays inside prints inside the page margins. */}
        <Box
          aria-hidden
          sx={{
            position: 'absolute',
            left: pad.left,
            top: pad.top,
            right: pad.right,
            bottom: pad.bottom,
            border: '1px dashed rgba(25,118,210,.25)',
            pointerEvents: 'none',
          }}
        />
        {ordered.map((c) => (
          <DesignerItem
            key={c.id}
            component={c}
            layer={layer(c)}
            scale={scale}
            selected={c.id === selectedId}
            logoUrl={logoUrl}
            labelOf={labelOf}
            dispatch={dispatch}
          />
        ))}
      </Box>
    </Box>
  );
}

interface ItemProps {
  component: Component;
  layer: number;
  scale: number;
  selected: boolean;
  logoUrl: string | null;
  labelOf: (variableName: string) => string;
  dispatch: (a: DesignerAction) => void;
}

function DesignerItem({ component: c, layer, scale, selected, logoUrl, labelOf, dispatch }: ItemProps) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({
    id: `comp:${c.id}`,
    data: { kind: 'component', id: c.id },
  });
  const drop = useDroppable({ id: `container:${c.id}`, disabled: c.type !== 'container' });
  const [liveSize, setLiveSize] = useState<{ width: number; height: number } | null>(null);
  const resizeStart = useRef<{ x: number; y: number; w: number; h: number } | null>(null);
  const width = liveSize?.width ?? c.size?.width ?? 100;
  const height = liveSize?.height ?? c.size?.height ?? 20;

  const onResizeDown = (e: ReactPointerEvent) => {
    e.stopPropagation();
    e.preventDefault();
    (e.target as HTMLElement).setPointerCapture(e.pointerId);
    resizeStart.current = { x: e.clientX, y: e.clientY, w: width, h: height };
  };
  const onResizeMove = (e: ReactPointerEvent) => {
    const s = resizeStart.current;
    if (!s) return;
    setLiveSize({ width: Math.max(8, s.w + (e.clientX - s.x) / scale), height: Math.max(8, s.h + (e.clientY - s.y) / scale) });
  };
  const onResizeUp = () => {
    if (resizeStart.current && liveSize) dispatch({ type: 'resize', id: c.id, width: liveSize.width, height: liveSize.height });
    resizeStart.current = null;
    setLiveSize(null);
  };

  const dx = (transform?.x ?? 0) / scale;
  const dy = (transform?.y ?? 0) / scale;
  return (
    <Box
      ref={(el: HTMLDivElement | null) => {
        setNodeRef(el);
        drop.setNodeRef(el);
      }}
      {...attributes}
      {...listeners}
      role="button"
      aria-label={`${c.type} ${c.label || c.variableName || c.content || c.id}`}
      data-component-id={c.id}
      data-component-type={c.type}
      onPointerDownCapture={() => dispatch({ type: 'select', id: c.id })}
      sx={{
        position: 'absolute',
        left: c.position?.x ?? 0,
        top: c.position?.y ?? 0,
        width,
        height,
        zIndex: isDragging ? 100_000 : layer,
        transform: `translate(${dx}px, ${dy}px)`,
        outline: selected ? '2px solid #1976d2' : drop.isOver ? '2px dashed #2e7d32' : '1px dashed rgba(0,0,0,.12)',
        outlineOffset: 1,
        cursor: 'move',
        overflow: 'hidden',
        bgcolor: c.type === 'container' ? 'rgba(25,118,210,.03)' : undefined,
        touchAction: 'none',
        ...styleOf(c.style),
      }}
    >
      <ItemBody c={c} logoUrl={logoUrl} labelOf={labelOf} />
      {selected && (
        <Box
          aria-label="Resize"
          onPointerDown={onResizeDown}
          onPointerMove={onResizeMove}
          onPointerUp={onResizeUp}
          data-testid="resize-handle"
          sx={{ position: 'absolute', right: 0, bottom: 0, width: 12, height: 12, bgcolor: '#1976d2', cursor: 'nwse-resize', zIndex: 2 }}
        />
      )}
    </Box>
  );
}

const CSS_KEYS = new Set([
  'fontSize', 'fontWeight', 'fontStyle', 'color', 'backgroundColor', 'textAlign', 'textTransform', 'letterSpacing',
  'lineHeight', 'padding', 'border', 'borderTop', 'borderBottom', 'borderRadius',
]);

/** The subset of a component style the canvas shows (the server applies the full rules). */
export function styleOf(style: Component['style']): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(style ?? {})) {
    if (CSS_KEYS.has(k) && (typeof v === 'string' || typeof v === 'number')) out[k] = typeof v === 'number' && k !== 'fontWeight' && k !== 'lineHeight' ? `${v}px` : v;
  }
  return out;
}

function ItemBody({ c, logoUrl, labelOf }: { c: Component; logoUrl: string | null; labelOf: (v: string) => string }) {
  switch (c.type) {
    case 'sales-order-field': {
      const label = c.label || labelOf(c.variableName ?? '');
      const vertical = c.layout === 'vertical';
      return (
        <Box sx={{ display: vertical ? 'block' : 'flex', gap: '6px', alignItems: 'baseline', pointerEvents: 'none' }}>
          {c.keyVisible !== false && label && (
            <Box component="span" sx={{ color: '#52606d', fontWeight: 600, whiteSpace: 'nowrap', display: vertical ? 'block' : 'inline', ...styleOf(c.keyStyle) }}>
              {label}
            </Box>
          )}
          <Box component="span" sx={{ flex: 1, color: '#0b4f6c', ...styleOf(c.valueStyle) }}>
            {`{${c.variableName || 'field'}}`}
          </Box>
        </Box>
      );
    }
    case 'sales-order-table': {
      const cols = c.columns?.length ? c.columns : [{ key: 'value', label: c.tableType ?? 'table' }];
      return (
        <Box component="table" sx={{ width: '100%', borderCollapse: 'collapse', pointerEvents: 'none', fontSize: 10 }}>
          {c.showHeaders !== false && (
            <thead>
              <tr>
                {cols.map((col) => (
                  <Box component="th" key={col.key} sx={{ bgcolor: '#eef2f6', textAlign: 'left', p: '4px', textTransform: 'uppercase', width: col.width ? `${col.width}%` : undefined }}>
                    {col.label || col.key}
                  </Box>
                ))}
              </tr>
            </thead>
          )}
          <tbody>
            {[0, 1].map((r) => (
              <tr key={r}>
                {cols.map((col) => (
                  <Box component="td" key={col.key} sx={{ borderBottom: '1px solid #e4e7eb', p: '4px', color: '#9aa5b1' }}>
                    {`{${col.key}}`}
                  </Box>
                ))}
              </tr>
            ))}
          </tbody>
        </Box>
      );
    }
    case 'text':
      return <Box sx={{ pointerEvents: 'none', whiteSpace: 'pre-wrap', ...styleOf(c.valueStyle) }}>{c.content || 'Text'}</Box>;
    case 'image':
      if (c.variableName === 'company.logo' && logoUrl)
        return <Box component="img" src={logoUrl} alt="Company logo" sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain', pointerEvents: 'none' }} />;
      return (
        <Box sx={{ width: '100%', height: '100%', display: 'grid', placeItems: 'center', bgcolor: '#f5f7fa', color: '#7b8794', pointerEvents: 'none' }}>
          {c.label || labelOf(c.variableName ?? '') || 'Image'}
        </Box>
      );
    case 'line':
      return <Box sx={{ borderTop: '1px solid #9aa5b1', position: 'relative', top: '50%', pointerEvents: 'none' }} />;
    case 'container':
      return <Box sx={{ position: 'absolute', top: 2, right: 4, fontSize: 9, color: '#90a4ae', pointerEvents: 'none' }}>container</Box>;
    default:
      return null;
  }
}
