import { describe, expect, it } from 'vitest';
import {
  CANVAS_A4,
  DUPLICATE_OFFSET,
  designerReducer,
  emptyTemplate,
  findComponent,
  initialState,
  type DesignerAction,
  type DesignerState,
} from './designerModel';

const run = (state: DesignerState, ...actions: DesignerAction[]) => actions.reduce(designerReducer, state);
const get = (s: DesignerState, id: string) => {
  const c = findComponent(s.template.components, id);
  if (!c) throw new Error(`no ${id}`);
  return c;
};
const start = () => initialState(emptyTemplate('invoice', 'Test'));

describe('template designer model (spec section 4)', () => {
  it('new template: an empty A4 canvas 794 × 1123 with padding 20', () => {
    const s = run(start(), { type: 'add', component: { type: 'text' } }, { type: 'new', docType: 'delivery_ticket', name: 'Ticket' });
    expect(s.template).toMatchObject({ id: null, name: 'Ticket', type: 'delivery_ticket', components: [] });
    expect(s.template.canvasSettings).toMatchObject({ width: 794, height: 1123, pageSize: 'A4', padding: { top: 20, right: 20, bottom: 20, left: 20 } });
    expect(s.past).toEqual([]);
  });

  it('add: a new component with its own id, on top, selected', () => {
    const s = run(
      start(),
      { type: 'add', component: { type: 'text', content: 'Hello' }, position: { x: 100, y: 50 } },
      { type: 'add', component: { type: 'sales-order-field', variableName: 'document.number' } },
    );
    const [a, b] = s.template.components;
    expect(a).toMatchObject({ id: 'text-1', position: { x: 100, y: 50 }, content: 'Hello', zIndex: 1 });
    expect(b).toMatchObject({ id: 'sales-order-field-2', zIndex: 2, variableName: 'document.number' });
    expect(s.selectedId).toBe('sales-order-field-2');
    expect(s.dirty).toBe(true);
  });

  it('add keeps the component on the canvas', () => {
    const s = run(start(), { type: 'add', component: { type: 'box' }, position: { x: 5000, y: -40 } });
    const c = get(s, 'box-1');
    expect(c.position).toEqual({ x: CANVAS_A4.width - 200, y: 0 });
  });

  it('select: an existing component or nothing', () => {
    let s = run(start(), { type: 'add', component: { type: 'text' } }, { type: 'select', id: null });
    expect(s.selectedId).toBeNull();
    s = run(s, { type: 'select', id: 'text-1' });
    expect(s.selectedId).toBe('text-1');
    expect(run(s, { type: 'select', id: 'ghost' }).selectedId).toBeNull();
  });

  it('move: the component moves, clamped to the canvas', () => {
    let s = run(start(), { type: 'add', component: { type: 'text' } }, { type: 'move', id: 'text-1', x: 300, y: 400 });
    expect(get(s, 'text-1').position).toEqual({ x: 300, y: 400 });
    s = run(s, { type: 'move', id: 'text-1', x: -50, y: 99999 });
    expect(get(s, 'text-1').position).toEqual({ x: 0, y: CANVAS_A4.height - 24 });
  });

  it('move: children of a container move with it', () => {
    const s0 = run(
      start(),
      { type: 'add', component: { type: 'container' }, position: { x: 100, y: 100 } },
      { type: 'add', component: { type: 'text' }, position: { x: 110, y: 110 } },
      { type: 'addToContainer', id: 'text-2', containerId: 'container-1' },
      { type: 'add', component: { type: 'text' }, position: { x: 500, y: 500 } },
    );
    const s = run(s0, { type: 'move', id: 'container-1', x: 150, y: 130 });
    expect(get(s, 'container-1').position).toEqual({ x: 150, y: 130 });
    expect(get(s, 'text-2').position).toEqual({ x: 160, y: 140 });
    expect(get(s, 'text-3').position).toEqual({ x: 500, y: 500 }); // not in it
  });

  it('resize: at least 8 px, never past the canvas edge', () => {
    let s = run(start(), { type: 'add', component: { type: 'box' }, position: { x: 500, y: 20 } }, { type: 'resize', id: 'box-1', width: 60, height: 300 });
    expect(get(s, 'box-1').size).toEqual({ width: 60, height: 300 });
    s = run(s, { type: 'resize', id: 'box-1', width: 500, height: 2 });
    expect(get(s, 'box-1').size).toEqual({ width: CANVAS_A4.width - 500, height: 8 });
  });

  it('duplicate: offset 20 px, one layer up, selected', () => {
    const s = run(
      start(),
      { type: 'add', component: { type: 'text', content: 'Total' }, position: { x: 40, y: 60 } },
      { type: 'duplicate', id: 'text-1' },
    );
    const copy = get(s, 'text-2');
    expect(copy).toMatchObject({ content: 'Total', position: { x: 40 + DUPLICATE_OFFSET, y: 60 + DUPLICATE_OFFSET }, zIndex: 2 });
    expect(s.selectedId).toBe('text-2');
  });

  it('duplicate of a container copies its contents', () => {
    const s = run(
      start(),
      { type: 'add', component: { type: 'container' }, position: { x: 100, y: 100 } },
      { type: 'add', component: { type: 'text' }, position: { x: 110, y: 110 } },
      { type: 'addToContainer', id: 'text-2', containerId: 'container-1' },
      { type: 'duplicate', id: 'container-1' },
    );
    const copy = get(s, 'container-3');
    expect(copy.children).toEqual(['text-4']);
    expect(get(s, 'text-4')).toMatchObject({ parentId: 'container-3', position: { x: 130, y: 130 } });
    expect(get(s, 'container-1').children).toEqual(['text-2']);
  });

  it('bring to front and send to back', () => {
    let s = run(
      start(),
      { type: 'add', component: { type: 'box' } },
      { type: 'add', component: { type: 'box' } },
      { type: 'add', component: { type: 'box' } },
      { type: 'bringToFront', id: 'box-1' },
    );
    expect(get(s, 'box-1').zIndex).toBe(4);
    s = run(s, { type: 'sendToBack', id: 'box-3' });
    const zs = Object.fromEntries(s.template.components.map((c) => [c.id, c.zIndex]));
    expect(zs['box-3']).toBeLessThan(Math.min(zs['box-1'] ?? 0, zs['box-2'] ?? 0));
  });

  it('add to a container: remembered original position, at most one container', () => {
    let s = run(
      start(),
      { type: 'add', component: { type: 'container' }, position: { x: 400, y: 400 } },
      { type: 'add', component: { type: 'container' }, position: { x: 20, y: 700 } },
      { type: 'add', component: { type: 'text' }, position: { x: 30, y: 30 } },
      { type: 'addToContainer', id: 'text-3', containerId: 'container-1' },
    );
    const child = get(s, 'text-3');
    expect(child.parentId).toBe('container-1');
    expect(child.originalPosition).toEqual({ x: 30, y: 30 });
    expect(child.position?.x).toBeGreaterThanOrEqual(400); // placed inside the container
    expect(get(s, 'container-1').children).toEqual(['text-3']);
    s = run(s, { type: 'addToContainer', id: 'text-3', containerId: 'container-2' });
    expect(get(s, 'container-1').children).toEqual([]);
    expect(get(s, 'container-2').children).toEqual(['text-3']);
    expect(get(s, 'text-3').originalPosition).toEqual({ x: 30, y: 30 });
    // A container never goes into a container.
    const same = run(s, { type: 'addToContainer', id: 'container-1', containerId: 'container-2' });
    expect(same).toBe(s);
  });

  it('remove from a container restores the original position', () => {
    const s = run(
      start(),
      { type: 'add', component: { type: 'container' }, position: { x: 400, y: 400 } },
      { type: 'add', component: { type: 'text' }, position: { x: 30, y: 30 } },
      { type: 'addToContainer', id: 'text-2', containerId: 'container-1' },
      { type: 'removeFromContainer', id: 'text-2' },
    );
    expect(get(s, 'text-2')).toMatchObject({ position: { x: 30, y: 30 }, parentId: null, originalPosition: null });
    expect(get(s, 'container-1').children).toEqual([]);
  });

  it('preview mode clears the selection and changes nothing', () => {
    const s0 = run(start(), { type: 'add', component: { type: 'text' } });
    const s = run(s0, { type: 'preview', on: true });
    expect(s.preview).toBe(true);
    expect(s.selectedId).toBeNull();
    expect(s.template).toBe(s0.template);
    expect(s.past).toBe(s0.past);
  });

  it('delete: a container goes with its contents', () => {
    const s = run(
      start(),
      { type: 'add', component: { type: 'container' } },
      { type: 'add', component: { type: 'text' } },
      { type: 'addToContainer', id: 'text-2', containerId: 'container-1' },
      { type: 'add', component: { type: 'line' } },
      { type: 'delete', id: 'container-1' },
    );
    expect(s.template.components.map((c) => c.id)).toEqual(['line-3']);
  });

  it('undo and redo walk the history; a new change drops the redo branch', () => {
    let s = run(
      start(),
      { type: 'add', component: { type: 'text' } },
      { type: 'move', id: 'text-1', x: 200, y: 200 },
      { type: 'undo' },
    );
    expect(get(s, 'text-1').position).toEqual({ x: 20, y: 20 });
    s = run(s, { type: 'redo' });
    expect(get(s, 'text-1').position).toEqual({ x: 200, y: 200 });
    s = run(s, { type: 'undo' }, { type: 'undo' });
    expect(s.template.components).toEqual([]);
    expect(s.selectedId).toBeNull();
    s = run(s, { type: 'redo' }, { type: 'resize', id: 'text-1', width: 50, height: 50 });
    expect(s.future).toEqual([]);
    expect(run(s, { type: 'redo' })).toBe(s);
  });

  it('page size Letter changes the canvas', () => {
    const s = run(start(), { type: 'canvas', patch: { pageSize: 'Letter' } });
    expect(s.template.canvasSettings).toMatchObject({ pageSize: 'Letter', width: 816, height: 1056 });
  });
});
