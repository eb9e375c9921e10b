import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import OnboardingPage from './OnboardingPage';
import type { Onboarding } from './onboardingApi';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function checklist(over: Partial<Record<string, Partial<Onboarding['steps'][number]>>> = {}): Onboarding {
  const steps: Onboarding['steps'] = [
    { key: 'company_profile', title: 'Complete your company profile', description: 'Name, address, logo.', link: '/company-settings', state: 'done', detail: '' },
    { key: 'customer', title: 'Add your first customer with a ship-to', description: 'A customer.', link: '/customer', state: 'todo', detail: 'Add a ship-to (delivery address) to a customer' },
    { key: 'quickbooks', title: 'Connect QuickBooks Online', description: 'Sync your books.', link: '/quickbook-online', state: 'attention', detail: 'Reconnect: the connection expired' },
    { key: 'products', title: 'Add your products', description: 'What you sell.', link: '/product', state: 'todo', detail: '' },
  ].map((s) => ({ ...s, ...(over[s.key] ?? {}) }) as Onboarding['steps'][number]);
  return { steps, done: steps.filter((s) => s.state === 'done').length, total: steps.length };
}

afterEach(() => vi.unstubAllGlobals());

describe('onboarding page', () => {
  it('shows the progress and each step with its state, detail and link', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ status_code: 200, message: 'ok', data: checklist() })));
    renderWithProviders(<OnboardingPage />, { route: '/onboarding' });

    expect(await screen.findByTestId('onboarding-progress')).toHaveTextContent('1 of 4 steps done');
    expect(screen.getByRole('progressbar', { name: 'Onboarding progress' })).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByText('1 needs attention')).toBeInTheDocument();

    const steps = within(screen.getByRole('list', { name: 'Setup steps' })).getAllByRole('listitem');
    expect(steps.map((li) => li.getAttribute('data-state'))).toEqual(['done', 'todo', 'attention', 'todo']);

    const customer = screen.getByTestId('step-customer');
    expect(within(customer).getByText('Add a ship-to (delivery address) to a customer')).toBeInTheDocument();
    expect(within(customer).getByTitle('To do')).toBeInTheDocument();
    const [setUp] = within(customer).getAllByRole('link', { name: 'Set up: Add your first customer with a ship-to' });
    expect(setUp).toHaveAttribute('href', '/customer');

    const qbo = screen.getByTestId('step-quickbooks');
    expect(within(qbo).getByTitle('Needs attention')).toBeInTheDocument();
    expect(within(qbo).getAllByRole('link', { name: 'Fix: Connect QuickBooks Online' })[0]).toHaveAttribute('href', '/quickbook-online');
    expect(within(screen.getByTestId('step-company_profile')).getByTitle('Done')).toBeInTheDocument();
  });

  it('reads the checklist again when the user comes back to the tab', async () => {
    const answers = [checklist(), checklist({ customer: { state: 'done', detail: '' } })];
    const fetch = vi.fn(async () => json({ status_code: 200, message: 'ok', data: answers[Math.min(fetch.mock.calls.length - 1, 1)] }));
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<OnboardingPage />, { route: '/onboarding' });
    expect(await screen.findByTestId('onboarding-progress')).toHaveTextContent('1 of 4 steps done');

    act(() => {
      window.dispatchEvent(new Event('focus'));
    });

    await waitFor(() => expect(screen.getByTestId('onboarding-progress')).toHaveTextContent('2 of 4 steps done'));
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId('step-customer')).toHaveAttribute('data-state', 'done');
  });

  it("shows the server's message when the checklist cannot be read", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ detail: 'The onboarding checklist is for office users.' }, 403)));
    renderWithProviders(<OnboardingPage />, { route: '/onboarding' });
    expect(await screen.findByText('The onboarding checklist is for office users.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
