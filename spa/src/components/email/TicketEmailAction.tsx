import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { useCallback, useState } from 'react';
import { DocumentEmailDialog, useEmailDrafts } from './DocumentEmailDialog';
import { MSG, useMarkTicketsEmailedMutation, usePrepareTicketEmailMutation } from './documentEmailApi';

export interface TicketEmailActionProps {
  salesOrderId: number;
  orderNumber?: string;
  onEmailed?: () => void;
}

/** "Email delivery ticket" on a sales order: drafts to the contacts subscribed to delivery tickets. */
export function TicketEmailAction({ salesOrderId, orderNumber, onEmailed }: TicketEmailActionProps) {
  const [open, setOpen] = useState(false);
  const [splitByPo, setSplitByPo] = useState(false);
  const [prepareEmail] = usePrepareTicketEmailMutation();
  const [markEmailed] = useMarkTicketsEmailedMutation();
  const prepare = useCallback((split: boolean) => prepareEmail({ salesOrderId, splitByPo: split }).unwrap(), [prepareEmail, salesOrderId]);
  const { state, load } = useEmailDrafts(prepare, MSG.prepareTicket);

  return (
    <>
      <Button size="small" variant="outlined" onClick={() => { setOpen(true); void load(splitByPo); }} data-testid="ticket-email-action">
        Email delivery ticket
      </Button>
      <DocumentEmailDialog
        open={open}
        title={`Email the delivery ticket${orderNumber ? ` of ${orderNumber}` : ''}`}
        state={state}
        options={
          <FormControlLabel
            control={
              <Switch
                checked={splitByPo}
                onChange={(e) => {
                  setSplitByPo(e.target.checked);
                  void load(e.target.checked);
                }}
              />
            }
            label="One ticket per PO number"
          />
        }
        markSent={() => markEmailed(salesOrderId).unwrap()}
        markError={MSG.markTicket}
        onClose={(sent) => {
          setOpen(false);
          if (sent) onEmailed?.();
        }}
      />
    </>
  );
}
