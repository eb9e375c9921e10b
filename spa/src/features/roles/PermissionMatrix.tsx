import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import MenuItem from '@mui/material/MenuItem';
import CircularProgress from '@mui/material/CircularProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Select from '@mui/material/Select';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { buildMatrix, holds, humanize, rowScope, setRowScope, toggleCodes } from './permissionMatrix';
import { usePermissionListQuery } from './rolesApi';

export interface PermissionMatrixProps {
  value: string[];
  onChange: (codes: string[]) => void;
  disabled?: boolean;
  error?: string;
}

/**
 * Resources × actions; a row toggle per resource and a column toggle per action. Resources whose rows
 * belong to users (sales orders, delivery tickets: a driver's stops) also say which rows a role's
 * permissions reach: every row, or the user's own (the codes are then held as `<code>:own`).
 */
export function PermissionMatrix({ value, onChange, disabled, error }: PermissionMatrixProps) {
  const { data, isLoading, error: loadError } = usePermissionListQuery();
  const [filter, setFilter] = useState('');
  const matrix = useMemo(() => buildMatrix(data ?? []), [data]);
  const selected = new Set(value);
  const hasScopes = matrix.resources.some((r) => r.ownScope);
  const visible = matrix.resources.filter((r) => !filter.trim() || r.label.toLowerCase().includes(filter.trim().toLowerCase()));

  if (isLoading) return <CircularProgress size={24} aria-label="Loading permissions" />;
  if (loadError) return <Alert severity="error">{(loadError as { message?: string }).message || 'Failed to load permissions'}</Alert>;

  const rowCodes = (resource: string) => matrix.actions.map((a) => matrix.code(resource, a)).filter((c): c is string => !!c);
  const colCodes = (action: string) => visible.map((r) => matrix.code(r.resource, action)).filter((c): c is string => !!c);
  const state = (codes: string[]) => {
    const n = codes.filter((c) => holds(selected, c)).length;
    return { checked: n > 0 && n === codes.length, indeterminate: n > 0 && n < codes.length };
  };

  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle2" sx={{ fontWeight: 700, flex: 1 }}>
          Permissions <Typography component="span" variant="body2" color="text.secondary">({value.length} selected)</Typography>
        </Typography>
        <TextField placeholder="Find a screen" value={filter} onChange={(e) => setFilter(e.target.value)} sx={{ maxWidth: 220 }} slotProps={{ htmlInput: { 'aria-label': 'Find a screen in the permission list' } }} />
      </Box>
      {error && <Alert severity="error" sx={{ mb: 1 }}>{error}</Alert>}
      <TableContainer sx={{ maxHeight: 420, border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" stickyHeader aria-label="Permission matrix">
          <TableHead>
            <TableRow>
              <TableCell component="th" scope="col">Screen</TableCell>
              {hasScopes && <TableCell component="th" scope="col">Rows</TableCell>}
              {matrix.actions.map((a) => {
                const s = state(colCodes(a));
                return (
                  <TableCell key={a} align="center" component="th" scope="col" sx={{ whiteSpace: 'nowrap' }}>
                    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
                      {humanize(a)}
                      <Checkbox
                        size="small"
                        {...s}
                        disabled={disabled}
                        onChange={(e) => {
                          let next = value;
                          for (const r of visible) {
                            const code = matrix.code(r.resource, a);
                            if (code) next = toggleCodes(next, [code], e.target.checked, rowScope(value, rowCodes(r.resource)));
                          }
                          onChange(next);
                        }}
                        slotProps={{ input: { 'aria-label': `${humanize(a)}: all shown screens` } }}
                      />
                    </Box>
                  </TableCell>
                );
              })}
              <TableCell align="center" component="th" scope="col">All</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((r) => {
              const codes = rowCodes(r.resource);
              const s = state(codes);
              const scope = rowScope(value, codes);
              return (
                <TableRow key={r.resource} hover>
                  <TableCell component="th" scope="row">{r.label}</TableCell>
                  {hasScopes && (
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {r.ownScope ? (
                        <Select
                          size="small"
                          variant="standard"
                          value={scope}
                          disabled={disabled}
                          onChange={(e) => onChange(setRowScope(value, codes, e.target.value === 'own' ? 'own' : 'all'))}
                          inputProps={{ 'aria-label': `${r.label}: rows` }}
                        >
                          <MenuItem value="all">Every row</MenuItem>
                          <MenuItem value="own">Own rows only</MenuItem>
                        </Select>
                      ) : null}
                    </TableCell>
                  )}
                  {matrix.actions.map((a) => {
                    const code = matrix.code(r.resource, a);
                    return (
                      <TableCell key={a} align="center" padding="checkbox">
                        {code ? (
                          <Checkbox
                            size="small"
                            checked={holds(selected, code)}
                            disabled={disabled}
                            onChange={(e) => onChange(toggleCodes(value, [code], e.target.checked, scope))}
                            slotProps={{ input: { 'aria-label': `${r.label}: ${humanize(a)}` } }}
                          />
                        ) : (
                          <Typography component="span" color="text.disabled" aria-label="Not applicable">—</Typography>
                        )}
                      </TableCell>
                    );
                  })}
                  <TableCell align="center" padding="checkbox">
                    <Checkbox
                      size="small"
                      {...s}
                      disabled={disabled}
                      onChange={(e) => onChange(toggleCodes(value, codes, e.target.checked, scope))}
                      slotProps={{ input: { 'aria-label': `${r.label}: all actions` } }}
                    />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
