/**
 * The template designer's model: every component operation of spec section 4 as a pure reducer
 * (new, select, add, move, resize, duplicate, bring to front, send to back, add to / remove from a
 * container, preview mode), plus undo/redo. Types come from the generated API schema.
 */
import type { Schemas } from '@/lib/api/types';

export type Component = Schemas['Component'];
export type CanvasSettings = Schemas['CanvasSettings'];
export type ComponentType = Component['type'];
export type DocType = Schemas['TemplateIn']['type'];

export const CANVAS_A4 = { width: 794, height: 1123 } as const;
export const CANVAS_LETTER = { width: 816, height: 1056 } as const;
export const PADDING = 20;
export const DUPLICATE_OFFSET = 20;
export const MIN_SIZE = 8;
const HISTORY_LIMIT = 100;

export function defaultCanvas(): CanvasSettings {
  return {
    width: CANVAS_A4.width,
    height: CANVAS_A4.height,
    backgroundColor: '#ffffff',
    padding: { top: PADDING, right: PADDING, bottom: PADDING, left: PADDING },
    pageSize: 'A4',
    border: { width: 0, color: '#e0e0e0' },
    shadow: { enabled: true, x: 0, y: 2, blur: 8, spread: 0, color: 'rgba(0,0,0,0.15)' },
  };
}

export interface DraftTemplate {
  id: number | null;
  name: string;
  type: DocType;
  components: Component[];
  canvasSettings: CanvasSettings;
  isDefault: boolean;
}

interface Snapshot {
  name: string;
  components: Component[];
  canvasSettings: CanvasSettings;
}

export interface DesignerState {
  template: DraftTemplate;
  selectedId: string | null;
  preview: boolean;
  dirty: boolean;
  past: Snapshot[];
  future: Snapshot[];
}

export type DesignerAction =
  | { type: 'new'; docType: DocType; name?: string }
  | { type: 'load'; template: DraftTemplate }
  | { type: 'saved'; id: number; isDefault: boolean }
  | { type: 'select'; id: string | null }
  | { type: 'add'; component: Partial<Component> & { type: ComponentType }; position?: { x: number; y: number } }
  | { type: 'move'; id: string; x: number; y: number }
  | { type: 'resize'; id: string; width: number; height: number }
  | { type: 'update'; id: string; patch: Partial<Component> }
  | { type: 'duplicate'; id: string }
  | { type: 'bringToFront'; id: string }
  | { type: 'sendToBack'; id: string }
  | { type: 'addToContainer'; id: string; containerId: string }
  | { type: 'removeFromContainer'; id: string }
  | { type: 'delete'; id: string }
  | { type: 'rename'; name: string }
  | { type: 'canvas'; patch: Partial<CanvasSettings> }
  | { type: 'preview'; on: boolean }
  | { type: 'undo' }
  | { type: 'redo' };

export function emptyTemplate(docType: DocType, name = 'Untitled template'): DraftTemplate {
  return { id: null, name, type: docType, components: [], canvasSettings: defaultCanvas(), isDefault: false };
}

export function initialState(template: DraftTemplate = emptyTemplate('invoice')): DesignerState {
  return { template, selectedId: null, preview: false, dirty: false, past: [], future: [] };
}

// --- helpers -------------------------------------------------------------------------------------
const pos = (c: Component) => ({ x: c.position?.x ?? 0, y: c.position?.y ?? 0 });
const size = (c: Component) => ({ width: c.size?.width ?? 100, height: c.size?.height ?? 20 });
const z = (c: Component) => c.zIndex ?? 1;

export function findComponent(components: Component[], id: string | null): Component | undefined {
  return id ? components.find((c) => c.id === id) : undefined;
}

/** A fresh id for a type: `<type>-<n>` with n one above any used. Pure: no clock, no randomness. */
export function nextId(components: Component[], type: string): string {
  let max = 0;
  for (const c of components) {
    const m = /-(\d+)$/.exec(c.id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return `${type}-${max + 1}`;
}

function maxZ(components: Component[]): number {
  return components.reduce((m, c) => Math.max(m, z(c)), 0);
}

function clampToCanvas(x: number, y: number, w: number, h: number, canvas: CanvasSettings) {
  return {
    x: Math.round(Math.min(Math.max(0, x), Math.max(0, canvas.width - w))),
    y: Math.round(Math.min(Math.max(0, y), Math.max(0, canvas.height - h))),
  };
}

const DEFAULT_SIZES: Record<ComponentType, { width: number; height: number }> = {
  'sales-order-field': { width: 240, height: 20 },
  'sales-order-table': { width: 754, height: 160 },
  container: { width: 300, height: 120 },
  text: { width: 240, height: 24 },
  image: { width: 160, height: 64 },
  line: { width: 300, height: 4 },
  box: { width: 200, height: 100 },
};

function snapshot(t: DraftTemplate): Snapshot {
  return { name: t.name, components: t.components, canvasSettings: t.canvasSettings };
}

/** Apply a change to the template, recording the previous state for undo. */
function commit(state: DesignerState, template: DraftTemplate, selectedId = state.selectedId): DesignerState {
  if (template === state.template) return state;
  return {
    ...state,
    template,
    selectedId,
    dirty: true,
    past: [...state.past, snapshot(state.template)].slice(-HISTORY_LIMIT),
    future: [],
  };
}

function withComponents(state: DesignerState, components: Component[], selectedId?: string | null): DesignerState {
  return commit(state, { ...state.template, components }, selectedId === undefined ? state.selectedId : selectedId);
}

function mapOne(components: Component[], id: string, fn: (c: Component) => Component): Component[] {
  return components.map((c) => (c.id === id ? fn(c) : c));
}

// --- the reducer ---------------------------------------------------------------------------------
export function designerReducer(state: DesignerState, action: DesignerAction): DesignerState {
  const { components } = state.template;
  switch (action.type) {
    case 'new':
      return initialState(emptyTemplate(action.docType, action.name));
    case 'load':
      return initialState(action.template);
    case 'saved':
      return { ...state, dirty: false, template: { ...state.template, id: action.id, isDefault: action.isDefault } };
    case 'select':
      return { ...state, selectedId: action.id && findComponent(components, action.id) ? action.id : null };
    case 'preview':
      return { ...state, preview: action.on, selectedId: action.on ? null : state.selectedId };
    case 'rename':
      return commit(state, { ...state.template, name: action.name });
    case 'canvas': {
      const canvasSettings = { ...state.template.canvasSettings, ...action.patch };
      if (action.patch.pageSize) {
        const dims = action.patch.pageSize === 'Letter' ? CANVAS_LETTER : CANVAS_A4;
        canvasSettings.width = dims.width;
        canvasSettings.height = dims.height;
      }
      return commit(state, { ...state.template, canvasSettings });
    }
    case 'add': {
      const type = action.component.type;
      const id = nextId(components, type);
      const dims = action.component.size ?? DEFAULT_SIZES[type];
      const at = action.position ?? { x: PADDING, y: PADDING };
      const position = clampToCanvas(at.x, at.y, dims.width, dims.height, state.template.canvasSettings);
      const component: Component = {
        children: [],
        content: '',
        variableName: '',
        label: '',
        fieldType: 'text',
        keyVisible: true,
        keyStyle: {},
        valueStyle: {},
        style: {},
        layout: 'horizontal',
        columns: [],
        rows: [],
        showHeaders: true,
        tableType: 'line_items',
        ...action.component,
        id,
        position,
        size: dims,
        zIndex: maxZ(components) + 1,
        parentId: null,
        originalPosition: null,
      };
      return withComponents(state, [...components, component], id);
    }
    case 'move': {
      const target = findComponent(components, action.id);
      if (!target) return state;
      const from = pos(target);
      const to = clampToCanvas(action.x, action.y, size(target).width, size(target).height, state.template.canvasSettings);
      const dx = to.x - from.x;
      const dy = to.y - from.y;
      if (!dx && !dy) return state;
      const kids = new Set(target.type === 'container' ? (target.children ?? []) : []);
      // A container's children move with it.
      return withComponents(
        state,
        components.map((c) =>
          c.id === target.id ? { ...c, position: to } : kids.has(c.id) ? { ...c, position: { x: pos(c).x + dx, y: pos(c).y + dy } } : c,
        ),
      );
    }
    case 'resize': {
      const target = findComponent(components, action.id);
      if (!target) return state;
      const { x, y } = pos(target);
      const canvas = state.template.canvasSettings;
      const width = Math.round(Math.min(Math.max(MIN_SIZE, action.width), canvas.width - x));
      const height = Math.round(Math.min(Math.max(MIN_SIZE, action.height), canvas.height - y));
      if (width === size(target).width && height === size(target).height) return state;
      return withComponents(state, mapOne(components, target.id, (c) => ({ ...c, size: { width, height } })));
    }
    case 'update': {
      if (!findComponent(components, action.id)) return state;
      const { id: _id, children: _c, parentId: _p, ...patch } = action.patch;
      return withComponents(state, mapOne(components, action.id, (c) => ({ ...c, ...patch })));
    }
    case 'duplicate': {
      const original = findComponent(components, action.id);
      if (!original) return state;
      let all = [...components];
      const copyOf = (c: Component, parentId: string | null): Component => {
        const id = nextId(all, c.type);
        const copy: Component = {
          ...c,
          id,
          position: { x: pos(c).x + DUPLICATE_OFFSET, y: pos(c).y + DUPLICATE_OFFSET },
          zIndex: z(c) + 1, // one layer up
          parentId,
          originalPosition: parentId ? c.originalPosition : null,
          children: [],
        };
        all = [...all, copy];
        return copy;
      };
      const copy = copyOf(original, original.parentId ?? null);
      if (original.type === 'container') {
        const kids = (original.children ?? []).map((kid) => findComponent(components, kid)).filter((k): k is Component => !!k);
        const kidCopies = kids.map((k) => copyOf(k, copy.id));
        all = all.map((c) => (c.id === copy.id ? { ...c, children: kidCopies.map((k) => k.id) } : c));
      }
      if (original.parentId) {
        // The copy stays in the same container.
        all = all.map((c) => (c.id === original.parentId ? { ...c, children: [...(c.children ?? []), copy.id] } : c));
      }
      return withComponents(state, all, copy.id);
    }
    case 'bringToFront': {
      const target = findComponent(components, action.id);
      if (!target) return state;
      const top = maxZ(components.filter((c) => c.id !== target.id));
      if (z(target) > top) return state;
      return withComponents(state, mapOne(components, target.id, (c) => ({ ...c, zIndex: top + 1 })));
    }
    case 'sendToBack': {
      const target = findComponent(components, action.id);
      if (!target) return state;
      const others = components.filter((c) => c.id !== target.id);
      const bottom = others.reduce((m, c) => Math.min(m, z(c)), Number.POSITIVE_INFINITY);
      if (z(target) < bottom) return state;
      // Everything else moves one layer up; this one takes the lowest layer.
      return withComponents(
        state,
        components.map((c) => (c.id === target.id ? { ...c, zIndex: 0 } : { ...c, zIndex: z(c) + 1 })),
      );
    }
    case 'addToContainer': {
      const child = findComponent(components, action.id);
      const box = findComponent(components, action.containerId);
      if (!child || !box || box.type !== 'container' || child.type === 'container' || child.id === box.id) return state;
      if (child.parentId === box.id) return state;
      // At most one container: leaving the old one first (its original position is kept).
      const original = child.parentId ? (child.originalPosition ?? pos(child)) : pos(child);
      const b = pos(box);
      const bs = size(box);
      const cs = size(child);
      const inside = pos(child).x >= b.x && pos(child).y >= b.y && pos(child).x + cs.width <= b.x + bs.width && pos(child).y + cs.height <= b.y + bs.height;
      let placed = pos(child);
      if (!inside) {
        const kids = (box.children ?? []).map((k) => findComponent(components, k)).filter((k): k is Component => !!k);
        const below = kids.reduce((m, k) => Math.max(m, pos(k).y + size(k).height), b.y + 4);
        placed = { x: b.x + 6, y: Math.min(below + 2, b.y + Math.max(0, bs.height - cs.height)) };
      }
      return withComponents(
        state,
        components.map((c) => {
          if (c.id === child.id) return { ...c, parentId: box.id, originalPosition: original, position: placed };
          if (c.id === box.id) return { ...c, children: [...(c.children ?? []), child.id] };
          if (c.id === child.parentId) return { ...c, children: (c.children ?? []).filter((k) => k !== child.id) };
          return c;
        }),
      );
    }
    case 'removeFromContainer': {
      const child = findComponent(components, action.id);
      if (!child || !child.parentId) return state;
      return withComponents(
        state,
        components.map((c) => {
          if (c.id === child.id) return { ...c, parentId: null, originalPosition: null, position: child.originalPosition ?? pos(child) };
          if (c.id === child.parentId) return { ...c, children: (c.children ?? []).filter((k) => k !== child.id) };
          return c;
        }),
      );
    }
    case 'delete': {
      const target = findComponent(components, action.id);
      if (!target) return state;
      // A container goes with its contents.
      const gone = new Set([target.id, ...(target.type === 'container' ? (target.children ?? []) : [])]);
      return withComponents(
        state,
        components
          .filter((c) => !gone.has(c.id))
          .map((c) => (c.id === target.parentId ? { ...c, children: (c.children ?? []).filter((k) => k !== target.id) } : c)),
        state.selectedId && gone.has(state.selectedId) ? null : state.selectedId,
      );
    }
    case 'undo': {
      const prev = state.past[state.past.length - 1];
      if (!prev) return state;
      return {
        ...state,
        template: { ...state.template, ...prev },
        past: state.past.slice(0, -1),
        future: [snapshot(state.template), ...state.future],
        dirty: true,
        selectedId: findComponent(prev.components, state.selectedId) ? state.selectedId : null,
      };
    }
    case 'redo': {
      const next = state.future[0];
      if (!next) return state;
      return {
        ...state,
        template: { ...state.template, ...next },
        past: [...state.past, snapshot(state.template)],
        future: state.future.slice(1),
        dirty: true,
        selectedId: findComponent(next.components, state.selectedId) ? state.selectedId : null,
      };
    }
  }
}

/** The body the server takes (TemplateIn / TemplateUpdate / RenderIn). */
export function toPayload(t: DraftTemplate) {
  return { name: t.name, type: t.type, components: t.components, canvasSettings: t.canvasSettings };
}
