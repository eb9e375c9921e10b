import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import { useCallback, useState } from 'react';
import { toast } from 'react-toastify';
import { DocumentEmailDialog, useEmailDrafts } from '@/components/email/DocumentEmailDialog';
import { MSG, emailErrorText, fetchDocumentPdf } from '@/components/email/documentEmailApi';
import { INVOICE_EMAIL_MSG, useMarkInvoiceEmailedMutation, usePrepareInvoiceEmailMutation } from './invoiceEmailApi';

function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export interface InvoiceDocumentActionsProps {
  invoiceId: number;
  invoiceNo: string;
  /** Called after the emails are queued and the invoice marked as emailed (refresh the view). */
  onEmailed?: () => void;
}

/**
 * The invoice view's PDF / Email toolbar: the PDF is the server's print of the invoice with the
 * company's default template; Email prepares drafts (with that PDF) to edit before sending.
 */
export function InvoiceDocumentActions({ invoiceId, invoiceNo, onEmailed }: InvoiceDocumentActionsProps) {
  const [open, setOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [includeTicket, setIncludeTicket] = useState(false);
  const [prepareEmail] = usePrepareInvoiceEmailMutation();
  const [markEmailed] = useMarkInvoiceEmailedMutation();

  const download = async () => {
    setDownloading(true);
    try {
      saveBlob(await fetchDocumentPdf('invoice', invoiceId), `${invoiceNo || `invoice-${invoiceId}`}.pdf`);
    } catch (err) {
      toast.error(emailErrorText(err, MSG.pdf));
    } finally {
      setDownloading(false);
    }
  };

  const prepare = useCallback(
    async (withTicket: boolean) => {
      const pdf = await fetchDocumentPdf('invoice', invoiceId);
      return prepareEmail({ id: invoiceId, includeDeliveryTicket: withTicket, pdf }).unwrap();
    },
    [invoiceId, prepareEmail],
  );
  const { state, load } = useEmailDrafts(prepare, INVOICE_EMAIL_MSG.prepare);

  return (
    <>
      <Stack direction="row" spacing={1} data-testid="invoice-document-actions">
        <Button size="small" variant="outlined" disabled={downloading} onClick={() => void download()}>
          {downloading ? 'Rendering…' : 'PDF'}
        </Button>
        <Button
          size="small"
          variant="contained"
          onClick={() => {
            setOpen(true);
            void load(includeTicket);
          }}
        >
          Email
        </Button>
      </Stack>
      <DocumentEmailDialog
        open={open}
        title={`Email invoice ${invoiceNo}`}
        state={state}
        options={
          <FormControlLabel
            control={
              <Switch
                checked={includeTicket}
                onChange={(e) => {
                  setIncludeTicket(e.target.checked);
                  void load(e.target.checked);
                }}
              />
            }
            label="Attach the delivery ticket"
          />
        }
        markSent={() => markEmailed(invoiceId).unwrap()}
        markError={INVOICE_EMAIL_MSG.mark}
        onClose={(sent) => {
          setOpen(false);
          if (sent) onEmailed?.();
        }}
      />
    </>
  );
}
