import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { jwtExpiringIn } from '@/testing/jwt';
import { createResourceApi } from './resourceApi';
import { ResourceListPage } from './ResourceListPage';

interface Thing {
  id: number;
  name: string;
}

const thingsApi = createResourceApi<Thing>({ key: 'permThing', tag: 'PermThing', listPath: '/customer/customers', importPath: '/customer/customers/import', itemPath: (id) => `/customer/customers/${id}` });

function serve(permissions: string[], grantsAll = false) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const data = String(url).includes('/role/current-user')
        ? { id: 1, permissions, role: { grants_all: grantsAll } }
        : { items: [{ id: 1, name: 'Clear diesel' }], total: 1, page: 1, size: 25, pages: 1 };
      return new Response(JSON.stringify({ status_code: 200, message: 'ok', data }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

function Page() {
  return (
    <ResourceListPage<Thing, { name: string }, Partial<Thing>, Partial<Thing>>
      title="Things"
      singular="Thing"
      plural="things"
      resource={thingsApi}
      permission="perm_thing"
      columns={[{ field: 'name', headerName: 'Name' }]}
      describe={(t) => t.name}
      defaultPageSize={25}
      form={{ fields: [{ name: 'name', label: 'Name' }], emptyValues: { name: '' }, toValues: (t) => ({ name: t.name }), toCreateBody: (v) => v, toUpdateBody: (v) => v }}
    />
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('lists follow the signed-in user’s permissions', () => {
  it('hides create and import without `.add`', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    serve(['perm_thing.view', 'perm_thing.change']);
    renderWithProviders(<Page />);
    expect(await screen.findByText('1 thing')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'New thing' })).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Import CSV' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
  });

  it('shows them with `.add`, or for a role that grants everything', async () => {
    window.localStorage.setItem('token', jwtExpiringIn(3600));
    serve([], true);
    renderWithProviders(<Page />);
    expect(await screen.findByRole('button', { name: 'New thing' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import CSV' })).toBeInTheDocument();
  });
});
