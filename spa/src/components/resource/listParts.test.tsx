import Paper from '@mui/material/Paper';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jwtExpiringIn } from '@/testing/jwt';
import { renderWithProviders } from '@/testing/render';
import { ResourceListPage, type RowAction } from './ResourceListPage';
import { ListToolbar } from './ListToolbar';
import { useListState } from './listState';
import { ResourceDeleteDialog, ResourceFormDialog } from './ResourceDialogs';
import { createResourceApi } from './resourceApi';
import { gridSortModel } from './ResourceTable';
import { rowActionItems } from './rowActions';
import type { ColumnDef } from './types';
import { useResourceList } from './useResourceList';

interface Customer {
  id: number;
  name: string;
  city: string;
}

const customersApi = createResourceApi<Customer>({ key: 'partsCustomer', tag: 'PartsCustomer', listPath: '/customer/customers', itemPath: (id) => `/customer/customers/${id}` });
const columns: ColumnDef<Customer>[] = [
  { field: 'name', headerName: 'Name', sortField: 'name' },
  { field: 'city', headerName: 'City', sortField: 'city_name' },
];

type Call = { url: URL; method: string; body: unknown };
let calls: Call[] = [];

beforeEach(() => {
  calls = [];
  window.localStorage.setItem('token', jwtExpiringIn(3600));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const u = new URL(url, 'http://localhost');
      calls.push({ url: u, method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      const data = u.pathname.includes('/role/current-user')
        ? { id: 1, permissions: [], role: { grants_all: true } }
        : init?.method && init.method !== 'GET'
          ? { id: 9, name: 'Bayou Farms', city: 'Houma' }
          : { items: [{ id: 1, name: 'Acadia Fuel', city: 'Lafayette' }], total: 31, page: 1, size: 10, pages: 4 };
      return new Response(JSON.stringify({ status_code: 200, message: 'ok', data }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const listCalls = () => calls.filter((c) => c.url.pathname.endsWith('/customer/customers') && c.method === 'GET');
const lastListQuery = () => Object.fromEntries(listCalls().at(-1)!.url.searchParams);

function Where() {
  return <output aria-label="url">{useLocation().search}</output>;
}

function Page() {
  return (
    <>
      <ResourceListPage<Customer, { name: string }, Partial<Customer>, Partial<Customer>>
        title="Customers"
        singular="Customer"
        plural="customers"
        resource={customersApi}
        columns={columns}
        describe={(c) => c.name}
        defaultPageSize={25}
        defaultSort={{ field: 'name', order: 'asc' }}
        filters={[{ field: 'name', label: 'Name', type: 'text' }]}
      />
      <Where />
    </>
  );
}

describe('ResourceListPage keeps its list in the URL', () => {
  it('opens a link with page, size, search, sort and filter as it was shared', async () => {
    renderWithProviders(<Page />, { route: '/customer?page=2&size=10&search=acad&sort_by=city_name&order=desc&filter_field=name&filter_operator=contains&filter_value=fuel' });
    expect(await screen.findByText('31 customers')).toBeInTheDocument();
    expect(lastListQuery()).toEqual({ page: '2', size: '10', search: 'acad', sort_by: 'city_name', order: 'desc', filter_field: 'name', filter_operator: 'contains', filter_value: 'fuel' });
    expect(screen.getByRole('searchbox', { name: 'Search customers' })).toHaveValue('acad');
    expect(screen.getByText('Name contains fuel')).toBeInTheDocument();
  });

  it('puts a typed search into the URL once typing pauses, back on page 1', async () => {
    renderWithProviders(<Page />, { route: '/customer?page=3' });
    await screen.findByText('31 customers');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search customers' }), { target: { value: ' bayou ' } });
    await waitFor(() => expect(screen.getByRole('status', { name: 'url' })).toHaveTextContent('?search=bayou'), { timeout: 4000 });
    await waitFor(() => expect(lastListQuery()).toMatchObject({ page: '1', search: 'bayou', sort_by: 'name', order: 'asc' }), { timeout: 4000 });
  });

  it('shows the last page when the link points past it', async () => {
    renderWithProviders(<Page />, { route: '/customer?page=9&size=10' });
    // The server answers 31 rows in 4 pages of 10: page 9 does not exist.
    await waitFor(() => expect(screen.getByRole('status', { name: 'url' })).toHaveTextContent('?page=4&size=10'), { timeout: 4000 });
    await waitFor(() => expect(lastListQuery()).toMatchObject({ page: '4', size: '10' }), { timeout: 4000 });
  });

  it('drops the filter from the URL when its chip is removed', async () => {
    renderWithProviders(<Page />, { route: '/customer?filter_field=name&filter_operator=equals&filter_value=x&page=2' });
    const chip = await screen.findByText('Name equals x');
    fireEvent.click(chip.parentElement!.querySelector('.MuiChip-deleteIcon')!);
    await waitFor(() => expect(screen.getByRole('status', { name: 'url' })).toHaveTextContent(/^$/), { timeout: 4000 });
  });
});

/** An 'invoice list'-like screen that takes only the parts it needs: state, data, toolbar. */
function CountOnly() {
  const state = useListState({ defaultPageSize: 50, storage: 'memory' });
  const list = useResourceList(customersApi, state, { columns, extraParams: { status: 'open' } });
  return (
    <Paper>
      <ListToolbar state={state} searchPlaceholder="Search open customers" summary={`${list.rowCount} open`} />
    </Paper>
  );
}

describe('the parts compose without ResourceListPage', () => {
  it('a toolbar and a count over the page-owned parameters', async () => {
    renderWithProviders(<CountOnly />, { route: '/board' });
    expect(await screen.findByText('31 open')).toBeInTheDocument();
    expect(lastListQuery()).toEqual({ page: '1', size: '50', status: 'open' });
  });

  it('maps the list sort onto the grid column that sorts by it', () => {
    expect(gridSortModel({ sort: { field: 'city_name', order: 'desc' } }, columns)).toEqual([{ field: 'city', sort: 'desc' }]);
    // A default sort on a field that is no column is sent to the server but not shown.
    expect(gridSortModel({ sort: { field: 'id', order: 'asc' } }, columns)).toEqual([]);
  });

  it('row actions: edit and delete when allowed, the page’s own in between, hidden ones left out', () => {
    const row: Customer = { id: 1, name: 'Acadia Fuel', city: 'Lafayette' };
    const open: RowAction<Customer> = { label: 'Open', icon: <span />, onClick: vi.fn() };
    const labels = (o: Parameters<typeof rowActionItems<Customer>>[1]) => rowActionItems(row, o).map((e) => e.props.label);
    expect(labels({ describe: (c) => c.name, onEdit: vi.fn(), onDelete: vi.fn(), actions: () => [open, { ...open, label: 'Secret', hidden: true }, { ...open, label: 'Change status', showInMenu: true }] })).toEqual([
      'Edit Acadia Fuel',
      'Open Acadia Fuel',
      'Change status',
      'Delete Acadia Fuel',
    ]);
    expect(labels({ describe: (c) => c.name, onEdit: vi.fn(), canEdit: () => false, onDelete: vi.fn(), canDelete: () => false })).toEqual([]);
  });
});

describe('the dialogs save through the resource API', () => {
  it('the form creates with the body the page builds, then closes', async () => {
    const onClose = vi.fn();
    const onCreated = vi.fn();
    renderWithProviders(
      <ResourceFormDialog<Customer, { name: string }, Partial<Customer>, Partial<Customer>>
        resource={customersApi}
        form={{ fields: [{ name: 'name', label: 'Name', required: true }], emptyValues: { name: '' }, toValues: (c) => ({ name: c.name }), toCreateBody: (v) => ({ name: v.name.trim() }), toUpdateBody: (v) => v }}
        mode="create"
        singular="Customer"
        describe={(c) => c.name}
        onClose={onClose}
        onCreated={onCreated}
      />,
    );
    fireEvent.change(screen.getByRole('textbox', { name: /Name/ }), { target: { value: ' Bayou Farms ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toMatch(/\/api\/customer\/customers\/?$/);
    expect(post.body).toEqual({ name: 'Bayou Farms' });
    expect(onCreated).toHaveBeenCalledWith({ id: 9, name: 'Bayou Farms', city: 'Houma' });
  });

  it('the confirmation deletes the row at its item path', async () => {
    const onClose = vi.fn();
    renderWithProviders(<ResourceDeleteDialog resource={customersApi} row={{ id: 4, name: 'Old Co', city: 'X' }} singular="Customer" describe={(c) => c.name} onClose={onClose} />);
    expect(screen.getByText('This permanently deletes the customer Old Co. It cannot be undone.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'DELETE')?.url.pathname).toMatch(/\/api\/customer\/customers\/4\/?$/);
  });
});
