import CloudUpload from '@mui/icons-material/CloudUpload';
import Button from '@mui/material/Button';
import { toast } from 'react-toastify';
import { api } from '@/lib/api/api';
import { isApiError } from '@/lib/api/errors';

/** The accounting service invoices post to (spec section 8's {accounting service}). */
export const ACCOUNTING_SERVICE = 'QuickBooks Online';
// Spec section 8: 'Posted to {accounting service} successfully' / 'Failed to post to {accounting service}'.
export const MSG_POSTED = `Posted to ${ACCOUNTING_SERVICE} successfully`;
export const MSG_POST_FAILED = `Failed to post to ${ACCOUNTING_SERVICE}`;

const tagged = api.enhanceEndpoints({ addTagTypes: ['Invoice', 'QboConnection', 'JobLog'] });

export const accountingApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    pushInvoice: build.mutation<unknown, number>({
      query: (invoiceId) => ({ url: `/quickbook/invoice/${invoiceId}/push`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Invoice', id }, 'QboConnection', 'JobLog'],
    }),
  }),
});

export const { usePushInvoiceMutation } = accountingApi;

/** "Post to QuickBooks" on the invoice view: pushes the invoice (created once, updated on a repeat). */
export function PostToAccountingButton({ invoiceId }: { invoiceId: number }) {
  const [push, state] = usePushInvoiceMutation();
  const post = async () => {
    try {
      await push(invoiceId).unwrap();
      toast.success(MSG_POSTED);
    } catch (e) {
      // The spec's sentence, then the server's reason (a conflict, a missing mapping, a lost connection).
      // The server's detail may already start with the sentence ('Failed to post to …: reason').
      const reason = isApiError(e) ? e.message.replace(MSG_POST_FAILED, '').replace(/^[\s:.-]+/, '') : '';
      toast.error(
        reason ? (
          <span>
            {MSG_POST_FAILED}
            <br />
            {reason}
          </span>
        ) : (
          MSG_POST_FAILED
        ),
      );
    }
  };
  return (
    <Button variant="outlined" startIcon={<CloudUpload />} onClick={post} disabled={state.isLoading}>
      Post to QuickBooks
    </Button>
  );
}
