import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Contract } from './documentsApi';
import type { Component, DesignerAction } from './designerModel';

interface Props {
  component: Component;
  components: Component[];
  contract: Contract | undefined;
  dispatch: (a: DesignerAction) => void;
}

const num = (v: string, fallback: number) => (Number.isFinite(Number(v)) && v.trim() !== '' ? Number(v) : fallback);

/** What the selected component shows and how: position, size, layer, container, content, style. */
export function PropertiesPanel({ component: c, components, contract, dispatch }: Props) {
  const update = (patch: Partial<Component>) => dispatch({ type: 'update', id: c.id, patch });
  const containers = components.filter((x) => x.type === 'container' && x.id !== c.id);
  const columnsOf = contract?.tables?.[c.tableType ?? 'line_items'] ?? [];
  const chosen = new Set((c.columns ?? []).map((col) => col.key));
  const valueStyle = c.valueStyle ?? {};
  return (
    <Stack spacing={1.5} data-testid="properties-panel">
      <Typography variant="subtitle2">
        {c.type} · {c.id}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
        <TextField size="small" label="X" type="number" value={c.position?.x ?? 0} onChange={(e) => dispatch({ type: 'move', id: c.id, x: num(e.target.value, 0), y: c.position?.y ?? 0 })} />
        <TextField size="small" label="Y" type="number" value={c.position?.y ?? 0} onChange={(e) => dispatch({ type: 'move', id: c.id, x: c.position?.x ?? 0, y: num(e.target.value, 0) })} />
        <TextField size="small" label="Width" type="number" value={c.size?.width ?? 0} onChange={(e) => dispatch({ type: 'resize', id: c.id, width: num(e.target.value, 8), height: c.size?.height ?? 20 })} />
        <TextField size="small" label="Height" type="number" value={c.size?.height ?? 0} onChange={(e) => dispatch({ type: 'resize', id: c.id, width: c.size?.width ?? 100, height: num(e.target.value, 8) })} />
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button size="small" variant="outlined" onClick={() => dispatch({ type: 'duplicate', id: c.id })}>Duplicate</Button>
        <Button size="small" variant="outlined" onClick={() => dispatch({ type: 'bringToFront', id: c.id })}>Bring to front</Button>
        <Button size="small" variant="outlined" onClick={() => dispatch({ type: 'sendToBack', id: c.id })}>Send to back</Button>
        <Button size="small" color="error" variant="outlined" onClick={() => dispatch({ type: 'delete', id: c.id })}>
          {c.type === 'container' ? 'Delete with contents' : 'Delete'}
        </Button>
      </Box>
      {c.type !== 'container' &&
        (c.parentId ? (
          <Button size="small" variant="outlined" onClick={() => dispatch({ type: 'removeFromContainer', id: c.id })}>
            Remove from container {c.parentId}
          </Button>
        ) : (
          containers.length > 0 && (
            <TextField select size="small" label="Add to container" value="" onChange={(e) => dispatch({ type: 'addToContainer', id: c.id, containerId: e.target.value })}>
              {containers.map((x) => (
                <MenuItem key={x.id} value={x.id}>{x.id}</MenuItem>
              ))}
            </TextField>
          )
        ))}
      {(c.type === 'sales-order-field' || c.type === 'image') && (
        <TextField select size="small" label="Field" value={c.variableName ?? ''} onChange={(e) => update({ variableName: e.target.value })}>
          {(contract?.variables ?? [])
            .filter((v) => (c.type === 'image') === (v.fieldType === 'image'))
            .map((v) => (
              <MenuItem key={v.variableName} value={v.variableName}>{v.label} ({v.variableName})</MenuItem>
            ))}
        </TextField>
      )}
      {c.type === 'sales-order-field' && (
        <>
          <TextField size="small" label="Label" value={c.label ?? ''} onChange={(e) => update({ label: e.target.value })} />
          <FormControlLabel control={<Checkbox checked={c.keyVisible !== false} onChange={(e) => update({ keyVisible: e.target.checked })} />} label="Show the label" />
          <TextField select size="small" label="Layout" value={c.layout ?? 'horizontal'} onChange={(e) => update({ layout: e.target.value as Component['layout'] })}>
            <MenuItem value="horizontal">Label and value on one line</MenuItem>
            <MenuItem value="vertical">Label above the value</MenuItem>
          </TextField>
        </>
      )}
      {c.type === 'text' && (
        <TextField size="small" label="Text" multiline minRows={2} value={c.content ?? ''} onChange={(e) => update({ content: e.target.value })} />
      )}
      {c.type === 'sales-order-table' && (
        <>
          <TextField select size="small" label="Table" value={c.tableType ?? 'line_items'} onChange={(e) => update({ tableType: e.target.value as Component['tableType'], columns: [] })}>
            {Object.keys(contract?.tables ?? {}).map((t) => (
              <MenuItem key={t} value={t}>{t.replace('_', ' ')}</MenuItem>
            ))}
          </TextField>
          <FormControlLabel control={<Checkbox checked={c.showHeaders !== false} onChange={(e) => update({ showHeaders: e.target.checked })} />} label="Header row" />
          <Typography variant="caption" color="text.secondary">Columns</Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap' }}>
            {columnsOf.map((col) => (
              <FormControlLabel
                key={col.key}
                sx={{ width: '50%', m: 0 }}
                control={
                  <Checkbox
                    size="small"
                    checked={chosen.has(col.key)}
                    onChange={(e) =>
                      update({
                        columns: e.target.checked
                          ? [...(c.columns ?? []), { key: col.key, label: col.label }]
                          : (c.columns ?? []).filter((x) => x.key !== col.key),
                      })
                    }
                  />
                }
                label={<Typography variant="body2">{col.label}</Typography>}
              />
            ))}
          </Box>
        </>
      )}
      {(c.type === 'text' || c.type === 'sales-order-field') && (
        <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
          <TextField size="small" label="Font size" type="number" value={valueStyle.fontSize ?? ''} onChange={(e) => update({ valueStyle: { ...valueStyle, fontSize: num(e.target.value, 11) } })} />
          <TextField select size="small" label="Weight" value={String(valueStyle.fontWeight ?? 400)} onChange={(e) => update({ valueStyle: { ...valueStyle, fontWeight: Number(e.target.value) } })}>
            <MenuItem value="400">Regular</MenuItem>
            <MenuItem value="700">Bold</MenuItem>
          </TextField>
          <TextField select size="small" label="Align" value={String(valueStyle.textAlign ?? 'left')} onChange={(e) => update({ valueStyle: { ...valueStyle, textAlign: e.target.value } })}>
            <MenuItem value="left">Left</MenuItem>
            <MenuItem value="center">Center</MenuItem>
            <MenuItem value="right">Right</MenuItem>
          </TextField>
          <TextField size="small" label="Colour" value={String(valueStyle.color ?? '')} placeholder="#1f2933" onChange={(e) => update({ valueStyle: { ...valueStyle, color: e.target.value } })} />
        </Box>
      )}
    </Stack>
  );
}
