import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { ConfirmDialog } from './ConfirmDialog';
import { csvCell, toCsv } from './csv';
import { FormDialog } from './FormDialog';
import type { FieldDef } from './formTypes';
import { applyLocal, matches } from './localList';
import { operatorsFor, type ColumnDef } from './types';
import { validateValues } from './validation';

interface V {
  name: string;
  email: string;
  qty: number | null;
  code: string;
  password: string;
}

const fields: FieldDef<V>[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 5 },
  { name: 'email', label: 'Email', type: 'email' },
  { name: 'qty', label: 'Quantity', type: 'number', min: 1, max: 10 },
  { name: 'code', label: 'Code', pattern: { regex: /^[A-Z]+$/, message: 'Use capital letters only' } },
  { name: 'password', label: 'Password', type: 'password', required: (mode) => mode === 'create', minLength: 10 },
];
const empty: V = { name: '', email: '', qty: null, code: '', password: '' };

describe('form validation described as data', () => {
  it('gives a message per invalid field', () => {
    expect(validateValues(fields, { ...empty }, 'create')).toEqual({ name: 'Name is required', password: 'Password is required' });
    expect(validateValues(fields, { ...empty }, 'edit')).toEqual({ name: 'Name is required' });
    expect(validateValues(fields, { name: 'toolong', email: 'x@', qty: 0, code: 'ab', password: 'short' }, 'create')).toEqual({
      name: 'Name must be at most 5 characters',
      email: 'Enter a valid email address',
      qty: 'Quantity must be at least 1',
      code: 'Use capital letters only',
      password: 'Password must be at least 10 characters',
    });
    expect(validateValues(fields, { name: 'Ok', email: 'a@b.co', qty: 3, code: 'AB', password: 'long enough1' }, 'create')).toEqual({});
  });

  it('shows the messages in the dialog and maps the server 422 onto fields', async () => {
    const onSubmit = vi.fn().mockRejectedValueOnce({ status: 422, message: 'Invalid input', fieldErrors: { email: 'This email is taken' } }).mockResolvedValueOnce(undefined);
    renderWithProviders(<FormDialog<V> open mode="create" title="New thing" fields={fields} initialValues={empty} onSubmit={onSubmit} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(screen.getByRole('textbox', { name: /Name/ }), { target: { value: 'Ann' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Email' }), { target: { value: 'ann@x.test' } });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'abcdefghij1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('This email is taken')).toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledWith({ ...empty, name: 'Ann', email: 'ann@x.test', password: 'abcdefghij1' });
  });
});

describe('delete confirmation', () => {
  it("shows the server's 409 detail and offers the alternative", async () => {
    const alt = vi.fn().mockResolvedValue(undefined);
    const onConfirm = vi.fn().mockRejectedValue({ status: 409, message: 'This record cannot be deleted because it is used by 3 sales orders. Deactivate it instead.' });
    renderWithProviders(<ConfirmDialog open title="Delete Diesel?" message="Really?" onConfirm={onConfirm} onClose={() => {}} alternative={{ label: 'Deactivate instead', run: alt }} />);
    expect(screen.queryByRole('button', { name: 'Deactivate instead' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/used by 3 sales orders/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate instead' }));
    await waitFor(() => expect(alt).toHaveBeenCalled());
  });
});

interface Row {
  id: number;
  name: string;
  qty: number;
}
const cols: ColumnDef<Row>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name' },
  { field: 'qty', headerName: 'Qty', sortField: 'qty' },
];
const rows: Row[] = [
  { id: 1, name: 'Dyed diesel', qty: 30 },
  { id: 2, name: 'Clear diesel', qty: 5 },
  { id: 3, name: 'DEF, 2.5 gal', qty: 12 },
];

describe('CSV export', () => {
  it('quotes what needs quoting and defuses formulas', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell(null)).toBe('');
    expect(toCsv(cols, rows)).toBe('Name,Qty\r\nDyed diesel,30\r\nClear diesel,5\r\n"DEF, 2.5 gal",12\r\n');
  });
});

describe('filter operators (spec section 5) on whole lists', () => {
  it('supports every operator', () => {
    expect(matches('Clear diesel', { field: 'name', operator: 'contains', value: 'diesel' })).toBe(true);
    expect(matches('Clear diesel', { field: 'name', operator: 'equals', value: 'clear diesel' })).toBe(true);
    expect(matches('Clear diesel', { field: 'name', operator: 'startsWith', value: 'clear' })).toBe(true);
    expect(matches('Clear diesel', { field: 'name', operator: 'endsWith', value: 'sel' })).toBe(true);
    expect(matches(30, { field: 'qty', operator: 'greaterThan', value: '12' })).toBe(true);
    expect(matches(5, { field: 'qty', operator: 'lessThan', value: '12' })).toBe(true);
    expect(matches(12, { field: 'qty', operator: 'between', value: '10,20' })).toBe(true);
    expect(matches(30, { field: 'qty', operator: 'between', value: '10,20' })).toBe(false);
  });

  it('searches, filters and sorts', () => {
    expect(applyLocal(rows, cols, { search: 'diesel', sortField: 'qty', order: 'asc' }).map((r) => r.id)).toEqual([2, 1]);
    expect(applyLocal(rows, cols, { filter: { field: 'qty', operator: 'greaterThan', value: '10' }, sortField: 'name', order: 'desc' }).map((r) => r.id)).toEqual([1, 3]);
  });

  it('offers operators that fit the field type', () => {
    expect(operatorsFor('text')).toEqual(['contains', 'equals', 'startsWith', 'endsWith']);
    expect(operatorsFor('number')).toEqual(['equals', 'greaterThan', 'lessThan', 'between']);
    expect(operatorsFor('boolean')).toEqual(['equals']);
  });
});
