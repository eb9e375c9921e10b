import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { SyncStateChip } from './SyncStateChip';

const ERROR = 'Failed to post to QuickBooks Online: map the product Clear Diesel to a QuickBooks item first.';

describe('the QuickBooks sync chip', () => {
  it("shows a failed record's reason beside the chip on its own page", () => {
    renderWithProviders(<SyncStateChip state="failed" error={ERROR} showError />);
    expect(screen.getByText('Failed')).toBeVisible();
    expect(screen.getByTestId('sync-error')).toHaveTextContent(ERROR);
    expect(screen.getByLabelText(`Failed: ${ERROR}`)).toBeInTheDocument();
  });

  it('keeps the reason to the tooltip in a list', () => {
    renderWithProviders(<SyncStateChip state="failed" error={ERROR} />);
    expect(screen.queryByTestId('sync-error')).toBeNull();
    expect(screen.getByLabelText(`Failed: ${ERROR}`)).toBeInTheDocument();
  });
});
