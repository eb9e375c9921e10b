import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { useCallback, useState } from 'react';
import { DocumentEmailDialog, useEmailDrafts } from '@/components/email/DocumentEmailDialog';
import { TICKET_EMAIL_MSG, useMarkTicketsEmailedMutation, usePrepareTicketEmailMutation } from './ticketEmailApi';

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
  const { state, load } = useEmailDrafts(prepare, TICKET_EMAIL_MSG.prepare);

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
        markError={TICKET_EMAIL_MSG.mark}
        onClose={(sent) => {
          setOpen(false);
          if (sent) onEmailed?.();
        }}
      />
    </>
  );
}
