import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { BillMatchTable } from './BillMatchTable';
import type { Bill } from './purchasingApi';

const tolerances = { quantity_tolerance_percent: '0.500', price_tolerance_per_unit: '0.0050', price_tolerance_percent: '0.000' };

const line = (over: Partial<Bill['match']['lines'][number]>): Bill['match']['lines'][number] => ({
  bill_line_id: 1,
  position: 1,
  description: 'Clear Diesel',
  product_id: 7,
  purchase_order_line_id: 3,
  bol_number: 'BOL-1',
  amount: '19690.56',
  ordered_quantity: '8000.000',
  received_quantity: '7950.000',
  billed_elsewhere: '0.000',
  available_quantity: '7950.000',
  billed_quantity: '8000.000',
  quantity_variance: '50.000',
  quantity_variance_percent: '0.63',
  quantity_tolerance: '39.750',
  quantity_ok: false,
  unit_cost: '2.4512',
  billed_unit_price: '2.4612',
  price_variance: '0.0100',
  price_variance_percent: '0.41',
  price_tolerance: '0.0050',
  price_ok: false,
  quantity_variance_amount: '122.56',
  price_variance_amount: '80.00',
  within_tolerance: false,
  reason: 'quantity over the received quantity by 50.000; unit price over the ordered cost by 0.0100',
  ...over,
});

describe('BillMatchTable', () => {
  it('shows the variances and why a line is out of tolerance', () => {
    const match = { status: 'out_of_tolerance', purchase_order_id: 9, tolerances, out_of_tolerance: [1], lines: [line({}), line({ bill_line_id: 2, position: 2, description: 'Unleaded', quantity_ok: true, price_ok: true, within_tolerance: true, quantity_variance: '-10.000', quantity_variance_percent: '-0.25', price_variance: '0.0030', reason: '' })] } as Bill['match'];
    renderWithProviders(<BillMatchTable match={match} />);
    const rows = screen.getAllByTestId('match-line');
    expect(rows[0]).toHaveAttribute('data-ok', 'no');
    expect(within(rows[0]).getByText('+50 (+0.63 %)')).toBeInTheDocument();
    expect(within(rows[0]).getByText('Out: quantity, price')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Within tolerance')).toBeInTheDocument();
    expect(within(rows[1]).getByText('-10 (-0.25 %)')).toBeInTheDocument();
    expect(screen.getByTestId('match-reason')).toHaveTextContent('Line 1: quantity over the received quantity by 50.000; unit price over the ordered cost by 0.0100.');
    expect(screen.getByText(/quantity ±0.5 % of the received quantity not yet billed; price ±\$0.0050 per unit/)).toBeInTheDocument();
  });

  it('says there is nothing to match without a purchase order', () => {
    renderWithProviders(<BillMatchTable match={{ status: 'no_po', purchase_order_id: null, tolerances, out_of_tolerance: [], lines: [] }} />);
    expect(screen.getByText(/names no purchase order: there is nothing to match/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
