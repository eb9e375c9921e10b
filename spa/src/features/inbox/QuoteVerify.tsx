import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { toast } from 'react-toastify';
import { MSG_VERIFY, useVerifyMessageMutation, type InboxMessage, type ProposedLine } from './inboxApi';
import { errorText } from './format';

export function QuoteVerify({ message }: { message: InboxMessage }) {
  const proposal = message.quote_proposal;
  const [lines, setLines] = useState<ProposedLine[]>(proposal?.lines ?? []);
  const [verify, state] = useVerifyMessageMutation();
  if (!proposal) return <Alert severity="warning">{message.proposal_error || 'No quote request matched: verify it as other.'}</Alert>;
  const submit = async () => {
    try {
      const res = await verify({
        id: message.id,
        body: {
          verified_as: 'price_quote_reply',
          quote: {
            quote_request_id: proposal.quote_request_id,
            supplier_id: proposal.supplier_id,
            lines: lines.map((l) => ({ product_id: l.product_id, terminal_id: l.terminal_id, price: l.price })),
          },
        },
      }).unwrap();
      toast.success(res.message);
    } catch (err) {
      toast.error(errorText(err, MSG_VERIFY));
    }
  };
  return (
    <Stack spacing={1.5}>
      <Typography variant="body2">
        Quote of <b>{proposal.supplier_name}</b> for request{' '}
        <RouterLink to={`/price-quotes/${proposal.quote_request_id}`}>{proposal.quote_request_number}</RouterLink>, read from {proposal.sources.join(' and ')}. Check the prices, then create the quote.
      </Typography>
      {lines.length === 0 ? (
        <Alert severity="warning">No price was found in the reply.</Alert>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Proposed prices">
            <TableHead>
              <TableRow>
                <TableCell>Terminal</TableCell>
                <TableCell>Product</TableCell>
                <TableCell align="right">Price / gal</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {lines.map((l, i) => (
                <TableRow key={`${l.terminal_id}-${l.product_id}`}>
                  <TableCell>{l.terminal_name}</TableCell>
                  <TableCell>{l.product_name}</TableCell>
                  <TableCell align="right">
                    <TextField
                      size="small"
                      value={l.price}
                      onChange={(e) => setLines((all) => all.map((x, j) => (j === i ? { ...x, price: e.target.value } : x)))}
                      slotProps={{ htmlInput: { inputMode: 'decimal', 'aria-label': `Price ${l.terminal_name} ${l.product_name}`, style: { textAlign: 'right' } } }}
                      sx={{ width: 120 }}
                    />
                  </TableCell>
                  <TableCell>
                    <Button size="small" color="inherit" onClick={() => setLines((all) => all.filter((_, j) => j !== i))}>Remove</Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      {proposal.unmatched.length > 0 && (
        <Alert severity="info">
          Lines with a price that name no product or terminal of the request: {proposal.unmatched.join(' · ')}
        </Alert>
      )}
      <Box>
        <Button variant="contained" disabled={state.isLoading || lines.length === 0} onClick={submit}>Create quote</Button>
      </Box>
    </Stack>
  );
}
