import Search from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type ReactNode } from 'react';
import { FilterBar } from './FilterBar';
import type { ListState } from './listState';
import type { FilterFieldDef } from './types';

/** Milliseconds between the last keystroke and the search being applied. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface SearchBoxProps {
  /** The applied term (the list state's search). */
  value: string;
  /** Called SEARCH_DEBOUNCE_MS after the last keystroke with the trimmed term. */
  onSearch: (term: string) => void;
  placeholder: string;
}

/** A search field that applies its term once typing pauses, and follows the applied term (Back, a link). */
export function SearchBox({ value, onSearch, placeholder }: SearchBoxProps) {
  const [input, setInput] = useState(value);
  const [applied, setApplied] = useState(value);
  if (value !== applied) {
    setApplied(value);
    if (value !== input.trim()) setInput(value);
  }
  useEffect(() => {
    const term = input.trim();
    if (term === value) return;
    const t = setTimeout(() => onSearch(term), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [input, value, onSearch]);
  return (
    <TextField
      value={input}
      onChange={(e) => setInput(e.target.value)}
      placeholder={placeholder}
      sx={{ maxWidth: { sm: 320 }, flex: { xs: '1 1 100%', sm: '0 1 320px' } }}
      slotProps={{
        htmlInput: { 'aria-label': placeholder, type: 'search' },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Search fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

export interface ListToolbarProps {
  state: ListState;
  /** The search field's placeholder and accessible name. */
  searchPlaceholder: string;
  /** Fields offered by the Filter button (none: no button). */
  filters?: readonly FilterFieldDef[];
  /** Page-owned controls after the filter (a status select, a date). */
  children?: ReactNode;
  /** At the right end, announced politely: '12 customers', 'Loading…'. */
  summary?: ReactNode;
}

/** The bar above a list: search, filter, the page's own controls and a count. */
export function ListToolbar({ state, searchPlaceholder, filters = [], children, summary }: ListToolbarProps) {
  return (
    <Box sx={{ p: 1.5, display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', borderBottom: 1, borderColor: 'divider' }}>
      <SearchBox value={state.search} onSearch={state.setSearch} placeholder={searchPlaceholder} />
      <FilterBar fields={filters} value={state.filter} onChange={state.setFilter} />
      {children}
      <Box sx={{ flex: 1 }} />
      {summary !== undefined && (
        <Typography variant="body2" color="text.secondary" aria-live="polite">
          {summary}
        </Typography>
      )}
    </Box>
  );
}
