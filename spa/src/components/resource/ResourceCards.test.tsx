import EmailOutlined from '@mui/icons-material/EmailOutlined';
import { fireEvent, screen, within } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { StatusChip } from './chips';
import { cardLayout } from './ResourceCards';
import { useListState } from './listState';
import { ResourceTable } from './ResourceTable';
import type { RowActionsOptions } from './rowActions';
import type { ColumnDef } from './types';

interface Invoice {
  id: number;
  number: string;
  customer: string;
  total: string;
  due: string;
  status: string;
}

const STATUS = { paid: { label: 'Paid', color: 'success' as const }, open: { label: 'Open', color: 'info' as const } };
// Wide enough that on a phone the grid put Status off-screen (six columns of 120px+).
const columns: ColumnDef<Invoice>[] = [
  { field: 'number', headerName: 'Invoice', sortField: 'number' },
  { field: 'customer', headerName: 'Customer', sortField: 'customer_name', minWidth: 200 },
  { field: 'total', headerName: 'Total', align: 'right' },
  { field: 'due', headerName: 'Due date', sortField: 'due_date' },
  { field: 'internal', headerName: 'Internal note', hideOnPhone: true },
  { field: 'status', headerName: 'Status', render: (r) => <StatusChip value={r.status} styles={STATUS} /> },
];
const rows: Invoice[] = Array.from({ length: 12 }, (_, i) => ({
  id: i + 1,
  number: `INV-${1001 + i}`,
  customer: `Customer ${i + 1}`,
  total: `${(i + 1) * 100}.00`,
  due: '2026-12-31',
  status: i % 2 ? 'paid' : 'open',
}));

function Where() {
  return <output data-testid="query">{useLocation().search}</output>;
}

function List({ onRowClick, actions }: { onRowClick?: (r: Invoice) => void; actions?: RowActionsOptions<Invoice> }) {
  const state = useListState({ defaultPageSize: 10 });
  return (
    <>
      <ResourceTable<Invoice> state={state} columns={columns} rows={rows} rowCount={rows.length} clientSide emptyText="No invoices yet." plural="invoices" onRowClick={onRowClick} actions={actions} />
      <Where />
    </>
  );
}

function setWidth(w: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: w });
}

describe('a list on a phone (≤ 768px)', () => {
  beforeEach(() => setWidth(390));
  afterEach(() => setWidth(1024));

  it('shows one card per row with its key fields and its status, not a grid', () => {
    renderWithProviders(<List />);
    expect(document.querySelector('.MuiDataGrid-root')).toBeNull();
    const cards = screen.getAllByTestId('list-card');
    expect(cards).toHaveLength(10);
    const first = cards[0];
    expect(first).toHaveTextContent('INV-1001');
    expect(within(first).getByTestId('card-status')).toHaveTextContent('Open');
    expect(within(cards[1]).getByTestId('card-status')).toHaveTextContent('Paid');
    expect(within(first).getByText('Customer')).toBeInTheDocument();
    expect(within(first).getByText('Customer 1')).toBeInTheDocument();
    expect(within(first).getByText('100.00')).toBeInTheDocument();
    // A column hidden on phones stays out of the card.
    expect(within(first).queryByText('Internal note')).not.toBeInTheDocument();
  });

  it('pages and sorts from the card view through the list state', () => {
    renderWithProviders(<List />);
    fireEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(screen.getAllByTestId('list-card').map((c) => c.textContent?.slice(0, 8))).toEqual(['INV-1011', 'INV-1012']);
    expect(screen.getByTestId('query')).toHaveTextContent('page=2');
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), { target: { value: 'customer_name:desc' } });
    expect(screen.getByTestId('query')).toHaveTextContent('sort_by=customer_name');
    expect(screen.getByTestId('query')).toHaveTextContent('order=desc');
  });

  it('opens a row from its card and runs its actions without opening it', () => {
    const open = vi.fn();
    const edit = vi.fn();
    const email = vi.fn();
    renderWithProviders(
      <List onRowClick={open} actions={{ describe: (r) => r.number, onEdit: edit, actions: () => [{ label: 'Email', icon: <EmailOutlined />, onClick: email, showInMenu: true }] }} />,
    );
    const first = screen.getAllByTestId('list-card')[0];
    fireEvent.click(within(first).getByRole('button', { name: 'INV-1001' }));
    expect(open).toHaveBeenCalledWith(rows[0]);
    fireEvent.click(within(first).getByRole('button', { name: 'Edit INV-1001' }));
    expect(edit).toHaveBeenCalledWith(rows[0]);
    fireEvent.click(within(first).getByRole('button', { name: 'More actions' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Email' }));
    expect(email).toHaveBeenCalledWith(rows[0]);
    expect(open).toHaveBeenCalledTimes(1);
  });
});

describe('the card layout', () => {
  it('heads the card with the first column and finds the status column by name or by choice', () => {
    const auto = cardLayout(columns);
    expect(auto.title?.field).toBe('number');
    expect(auto.status?.field).toBe('status');
    expect(auto.rest.map((c) => c.field)).toEqual(['customer', 'total', 'due']);
    const chosen = cardLayout<{ id: number }>([
      { field: 'code', headerName: 'Code' },
      { field: 'name', headerName: 'Name', card: 'title' },
      { field: 'is_active', headerName: 'Active' },
    ]);
    expect([chosen.title?.field, chosen.status?.field, chosen.rest.map((c) => c.field)]).toEqual(['name', 'is_active', ['code']]);
  });
});
