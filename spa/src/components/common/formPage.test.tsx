import { act, renderHook, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { formPageGate, stampOf, useStampedForm } from './formPage';

type Row = { id: number; updated_at: string; name: string };
const toForm = (r: Row | undefined) => ({ name: r?.name ?? '' });
const source = (r: Row | undefined) => (r ? { stamp: stampOf(r), form: () => toForm(r) } : null);

describe('the form page scaffold', () => {
  it('fills the form from the record once per version: a refetch of it keeps what was typed', () => {
    const v1: Row = { id: 7, updated_at: '2026-03-02T10:00:00Z', name: 'Alpha' };
    const { result, rerender } = renderHook(({ row }: { row: Row | undefined }) => useStampedForm(() => toForm(undefined), source(row)), {
      initialProps: { row: undefined as Row | undefined },
    });
    expect(result.current.form.name).toBe('');
    rerender({ row: v1 });
    expect(result.current.form.name).toBe('Alpha');
    act(() => result.current.setForm({ name: 'Alpha Fuels' }));
    rerender({ row: { ...v1 } }); // the same version, fetched again
    expect(result.current.form.name).toBe('Alpha Fuels');
    rerender({ row: { ...v1, updated_at: '2026-03-02T11:00:00Z', name: 'Changed elsewhere' } });
    expect(result.current.form.name).toBe('Changed elsewhere');
  });

  it('takes the saved row as the form, and the refetch of that version keeps what is typed next', () => {
    const v1: Row = { id: 7, updated_at: 'a', name: 'Alpha' };
    const saved: Row = { id: 7, updated_at: 'b', name: 'Saved' };
    const { result, rerender } = renderHook(({ row }: { row: Row }) => useStampedForm(() => toForm(undefined), source(row)), { initialProps: { row: v1 } });
    act(() => {
      result.current.loaded(stampOf(saved), toForm(saved));
      rerender({ row: saved }); // the record's query holds the saved version too
    });
    expect(result.current.form.name).toBe('Saved');
    act(() => result.current.setForm({ name: 'Typed after the save' }));
    rerender({ row: { ...saved } });
    expect(result.current.form.name).toBe('Typed after the save');
  });

  it('shows a spinner, the error, or "not found" before the form', () => {
    const props = { loadingLabel: 'Loading the order', notFound: 'Sales order not found', errorText: () => 'Network error' };
    renderWithProviders(<>{formPageGate({ ...props, rawId: '3', id: 3, query: { isLoading: true } })}</>);
    expect(screen.getByLabelText('Loading the order')).toBeTruthy();
    renderWithProviders(<>{formPageGate({ ...props, rawId: '3', id: 3, query: { isLoading: false, error: {} } })}</>);
    expect(screen.getByText('Network error')).toBeTruthy();
    renderWithProviders(<>{formPageGate({ ...props, rawId: 'abc', id: null, query: { isLoading: false } })}</>);
    expect(screen.getByText('Sales order not found')).toBeTruthy();
    expect(formPageGate({ ...props, rawId: 'new', id: null, query: { isLoading: false } })).toBeNull();
    expect(formPageGate({ ...props, rawId: '3', id: 3, query: { isLoading: false } })).toBeNull();
  });
});
