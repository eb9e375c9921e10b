import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FormDialog } from '@/components/resource';
import { renderWithProviders } from '@/testing/render';
import { MSG, categoryFormProblem, productFormProblem, subCategoryFormProblem } from './catalogApi';
import { emptyProduct, productFields, type ProductForm } from './ProductPage';

beforeEach(() => {
  // The category selects load their options; answer with empty lists.
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ status_code: 200, message: 'ok', data: [] }), { status: 200, headers: { 'Content-Type': 'application/json' } })));
});
afterEach(() => vi.unstubAllGlobals());

describe("the spec's required-field messages, client-side", () => {
  it('words them exactly as the server does', () => {
    expect(MSG).toEqual({ missingRequired: 'Missing required fields', missingName: 'Missing required field: name', missingCategoryId: 'Missing required field: category_id' });
    expect(productFormProblem({ name: 'Clear diesel', code: '', sold_as: 'gallon' })).toBe('Missing required fields');
    expect(productFormProblem({ name: '  ', code: 'ULSD', sold_as: 'gallon' })).toBe('Missing required fields');
    expect(productFormProblem({ name: 'Clear diesel', code: 'ULSD', sold_as: null })).toBe('Missing required fields');
    expect(productFormProblem({ name: 'Clear diesel', code: 'ULSD', sold_as: 'gallon' })).toBeNull();
    expect(categoryFormProblem({ name: '' })).toBe('Missing required field: name');
    expect(subCategoryFormProblem({ name: '', category_id: null })).toBe('Missing required field: name');
    expect(subCategoryFormProblem({ name: 'Diesel', category_id: null })).toBe('Missing required field: category_id');
    expect(subCategoryFormProblem({ name: 'Diesel', category_id: 1 })).toBeNull();
  });

  it("the product form says 'Missing required fields' and marks the fields before calling the server", async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    renderWithProviders(<FormDialog<ProductForm> open mode="create" title="New product" fields={productFields} initialValues={emptyProduct} validateForm={productFormProblem} onSubmit={onSubmit} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Missing required fields$/);
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Code is required')).toBeInTheDocument();
    expect(screen.getByText('Sold as is required')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.change(screen.getByRole('textbox', { name: /^Name/ }), { target: { value: 'Clear Diesel ULSD #2' } });
    fireEvent.change(screen.getByRole('textbox', { name: /^Code/ }), { target: { value: 'ULSD-CLR' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Sold as/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Gallon' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ name: 'Clear Diesel ULSD #2', code: 'ULSD-CLR', sold_as: 'gallon' })));
  });

  it("shows the server's own sentence when it refuses", async () => {
    const onSubmit = vi.fn().mockRejectedValue({ status: 422, message: 'Missing required fields', body: { detail: 'Missing required fields', fields: ['code'] } });
    const filled: ProductForm = { ...emptyProduct, name: 'DEF', code: 'DEF', sold_as: 'gallon' };
    renderWithProviders(<FormDialog<ProductForm> open mode="create" title="New product" fields={productFields} initialValues={filled} validateForm={productFormProblem} onSubmit={onSubmit} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Missing required fields');
  });
});
