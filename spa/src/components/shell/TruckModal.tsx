import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { truckKey } from './selectedTrucks';
import { truckDetail, truckLabel, type SelectedTruck } from './types';

export interface TruckModalProps {
  open: boolean;
  selected: SelectedTruck[];
  loadTrucks?: () => Promise<SelectedTruck[]>;
  onClose: () => void;
  onSave: (trucks: SelectedTruck[]) => void;
}

/** 'Change Trucks': pick the trucks the driver is running today. Loaded lazily (mounted open). */
export function TruckModal({ open, selected, loadTrucks, onClose, onSave }: TruckModalProps) {
  const [trucks, setTrucks] = useState<SelectedTruck[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<Set<string>>(() => new Set(selected.map(truckKey)));

  // Each opening starts from the saved selection and loads the trucks again.
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setPicked(new Set(selected.map(truckKey)));
      setTrucks(null);
      setError(null);
    }
  }

  useEffect(() => {
    if (!open) return;
    let live = true;
    (loadTrucks ? loadTrucks() : Promise.resolve([]))
      .then((list) => live && setTrucks(list))
      .catch((err: unknown) => {
        if (!live) return;
        setTrucks([]);
        setError((err as { message?: string })?.message || 'The trucks could not be loaded.');
      });
    return () => {
      live = false;
    };
  }, [open, loadTrucks, selected]);

  const toggle = (key: string) =>
    setPicked((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="truck-modal-title">
      <DialogTitle id="truck-modal-title">Change Trucks</DialogTitle>
      <DialogContent dividers>
        {trucks === null && (
          <CircularProgress size={28} aria-label="Loading trucks" sx={{ display: 'block', mx: 'auto', my: 2 }} />
        )}
        {error && <Alert severity="warning" sx={{ mb: 1 }}>{error}</Alert>}
        {trucks && trucks.length === 0 && (
          <Typography color="text.secondary" data-testid="no-trucks">
            There are no trucks for your company yet. When the office adds company assets, they will appear here.
          </Typography>
        )}
        {trucks && trucks.length > 0 && (
          <List dense>
            {trucks.map((t) => {
              const key = truckKey(t);
              const id = `truck-${key}`;
              return (
                <ListItemButton key={key} onClick={() => toggle(key)}>
                  <ListItemIcon>
                    <Checkbox edge="start" checked={picked.has(key)} tabIndex={-1} disableRipple slotProps={{ input: { 'aria-labelledby': id } }} />
                  </ListItemIcon>
                  <ListItemText id={id} primary={truckLabel(t)} secondary={truckDetail(t)} />
                </ListItemButton>
              );
            })}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={!trucks || trucks.length === 0}
          onClick={() => onSave((trucks ?? []).filter((t) => picked.has(truckKey(t))))}
        >
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default TruckModal;
