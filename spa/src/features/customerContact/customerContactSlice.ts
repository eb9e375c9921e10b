import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { useSelector } from 'react-redux';

/**
 * Persisted (redux-persist): the contact book's working state, kept across reloads.
 * The contact screens themselves arrive with the master-data issue.
 */
export interface CustomerContactState {
  selectedCustomerId: number | null;
  selectedShipToId: number | null;
  position: string | null;
}

const initialState: CustomerContactState = { selectedCustomerId: null, selectedShipToId: null, position: null };

export const customerContactSlice = createSlice({
  name: 'customerContact',
  initialState,
  reducers: {
    contactFilterChanged(state, action: PayloadAction<Partial<CustomerContactState>>) {
      Object.assign(state, action.payload);
    },
  },
});

export const { contactFilterChanged } = customerContactSlice.actions;

/** Reads this feature's own slice (app/store.ts mounts it under `customerContact`). */
export const useContactBookSelector = useSelector.withTypes<{ customerContact: CustomerContactState }>();
