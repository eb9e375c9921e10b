import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageSpinner } from '@/components/common/PageSpinner';
import { Timeline, type TimelineEvent } from '@/components/common/Timeline';
import { isApiError } from '@/lib/api/errors';
import { apiDownload } from '@/lib/api/http';
import { cspNonce } from '@/lib/csp/nonce';
import { useTicketDocumentQuery, useTicketQuery, type TicketDocument } from './deliveryApi';
import './deliveryTicket.css';

type Paper = 'letter' | 'A4';

const num = (v: string | null, places = 1) =>
  v === null || v === '' ? '' : Number(v).toLocaleString('en-US', { minimumFractionDigits: places, maximumFractionDigits: 3 });
const when = (v: string | null) => (v ? new Date(v).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : '');

/** /delivery-ticket/{id}: the ticket alone (no shell), printable on Letter or A4, and its PDF. */
export default function DeliveryTicketPage() {
  const { id } = useParams();
  const ticketId = Number(id);
  const valid = Number.isInteger(ticketId) && ticketId > 0;
  const { data, error, isLoading } = useTicketDocumentQuery(ticketId, { skip: !valid });
  const ticket = useTicketQuery(ticketId, { skip: !valid });
  const [paper, setPaper] = useState<Paper>('letter');
  const [downloading, setDownloading] = useState(false);
  const navigate = useNavigate();

  const download = async () => {
    setDownloading(true);
    try {
      const blob = await apiDownload(`/delivery-ticket/${ticketId}`);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `${data?.document.number ?? `delivery-ticket-${ticketId}`}.pdf`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      toast.error(isApiError(e) ? e.message : 'Download failed');
    } finally {
      setDownloading(false);
    }
  };

  if (!valid) return <Alert severity="error" sx={{ m: 2 }}>Delivery ticket not found</Alert>;
  if (isLoading) return <PageSpinner />;
  if (error || !data) {
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {isApiError(error) ? error.message : 'Failed to fetch delivery ticket'}
      </Alert>
    );
  }
  return (
    <Box className="dt-screen">
      <style nonce={cspNonce()}>{`@page { size: ${paper === 'A4' ? 'A4' : 'letter'}; margin: 12mm; }`}</style>
      <Box className="dt-toolbar no-print" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', p: 1.5 }}>
        <Button onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/sales-order'))}>Back</Button>
        <Box sx={{ flex: 1 }} />
        <TextField select size="small" label="Paper" value={paper} onChange={(e) => setPaper(e.target.value as Paper)} sx={{ width: 120 }}>
          <MenuItem value="letter">Letter</MenuItem>
          <MenuItem value="A4">A4</MenuItem>
        </TextField>
        <Button variant="outlined" onClick={() => window.print()}>
          Print
        </Button>
        <Button variant="contained" onClick={() => void download()} disabled={downloading}>
          Download PDF
        </Button>
      </Box>
      <TicketSheet doc={data} paper={paper} />
      <Paper component="section" variant="outlined" className="dt-timeline no-print" aria-label="Timeline">
        <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
          Timeline
        </Typography>
        {ticket.error ? (
          <Alert severity="error">{isApiError(ticket.error) ? ticket.error.message : 'Failed to fetch the timeline'}</Alert>
        ) : ticket.data ? (
          <Timeline events={ticket.data.timeline} note={ticketNote} />
        ) : (
          <Typography variant="body2" color="text.secondary">Loading…</Typography>
        )}
      </Paper>
    </Box>
  );
}

/** What a ticket's move adds to its line: the PO it was made or reopened for, when it was delivered. */
function ticketNote(e: TimelineEvent): string {
  const parts = [];
  if (typeof e.details.po_number === 'string' && e.details.po_number) parts.push(`PO ${e.details.po_number}`);
  if (typeof e.details.delivered_at === 'string') parts.push(`delivered ${when(e.details.delivered_at)}`);
  if (e.details.backfilled) parts.push('recorded before tickets kept a timeline');
  return parts.length ? ` · ${parts.join(' · ')}` : '';
}

export function TicketSheet({ doc, paper }: { doc: TicketDocument; paper: Paper }) {
  const d = doc.document;
  return (
    <article className={`dt-sheet dt-${paper}`} aria-label={`Delivery ticket ${d.number}`}>
      <header className="dt-head">
        <div>
          {doc.company.logo && <img className="dt-logo" src={doc.company.logo} alt="" />}
          <div className="dt-company">{doc.company.name}</div>
          {doc.company.address.map((l) => (
            <div key={l}>{l}</div>
          ))}
          {doc.company.phone && <div>{doc.company.phone}</div>}
        </div>
        <div className="dt-title">
          <h1>{d.title || 'Delivery Ticket'}</h1>
          <div className="dt-number">{d.number}</div>
          <dl>
            <dt>Order</dt>
            <dd>{d.order_number}</dd>
            {d.po_number && (
              <>
                <dt>PO</dt>
                <dd>{d.po_number}</dd>
              </>
            )}
            <dt>Status</dt>
            <dd>{d.status}</dd>
            {d.delivered_at && (
              <>
                <dt>Delivered</dt>
                <dd>{when(d.delivered_at)}</dd>
              </>
            )}
            {d.driver && (
              <>
                <dt>Driver</dt>
                <dd>{d.driver}</dd>
              </>
            )}
            {d.truck && (
              <>
                <dt>Truck</dt>
                <dd>{d.truck}</dd>
              </>
            )}
          </dl>
        </div>
      </header>
      <section className="dt-parties">
        <div>
          <h2>Customer</h2>
          <div className="dt-strong">{doc.customer.name}</div>
          {doc.customer.account_number && <div>Account {doc.customer.account_number}</div>}
          {doc.customer.address.map((l) => (
            <div key={l}>{l}</div>
          ))}
        </div>
        <div>
          <h2>Ship to</h2>
          <div className="dt-strong">{doc.ship_to.name ?? ''}</div>
          {(doc.ship_to.address ?? []).map((l) => (
            <div key={l}>{l}</div>
          ))}
        </div>
      </section>
      <table className="dt-lines">
        <thead>
          <tr>
            <th>#</th>
            <th>Product</th>
            <th>Tank</th>
            <th className="r">Ordered</th>
            <th className="r">Meter start</th>
            <th className="r">Meter end</th>
            <th className="r">Temp °F</th>
            <th className="r">Gross</th>
            <th className="r">Net @60°F</th>
            <th className="r">Delivered</th>
          </tr>
        </thead>
        <tbody>
          {doc.lines.map((l) => (
            <tr key={l.line_no}>
              <td>{l.line_no}</td>
              <td>
                <div className="dt-strong">{l.product_name}</div>
                <div className="dt-muted">{l.product_code}</div>
              </td>
              <td>{l.tank}</td>
              <td className="r">
                {num(l.quantity_ordered)} {l.unit}
              </td>
              <td className="r">{num(l.meter_start)}</td>
              <td className="r">{num(l.meter_end)}</td>
              <td className="r">{num(l.temperature)}</td>
              <td className="r">{num(l.gross_volume)}</td>
              <td className="r dt-strong">{num(l.net_volume)}</td>
              <td className="r">
                {num(l.quantity_delivered)} {l.quantity_delivered ? l.unit : ''}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={7} className="r">
              Totals
            </td>
            <td className="r">{num(doc.totals.gross_volume)}</td>
            <td className="r dt-strong">{num(doc.totals.net_volume)}</td>
            <td />
          </tr>
        </tfoot>
      </table>
      {d.notes && <p className="dt-notes">{d.notes}</p>}
      <section className="dt-proof">
        <div>
          <h2>Received by</h2>
          {doc.signature.image ? <img className="dt-signature" src={doc.signature.image} alt="Signature" /> : <div className="dt-sign-line" />}
          <div className="dt-strong">{doc.signature.signer_name || '\u00a0'}</div>
          {doc.signature.signed_at && <div>{when(doc.signature.signed_at)}</div>}
          {doc.signature.location && <div className="dt-muted">GPS {doc.signature.location}</div>}
        </div>
        {doc.signature.photos.length > 0 && (
          <div className="dt-photos">
            {doc.signature.photos.map((p, i) => (
              <img key={i} src={p} alt={`At delivery, ${i + 1}`} />
            ))}
          </div>
        )}
      </section>
    </article>
  );
}
