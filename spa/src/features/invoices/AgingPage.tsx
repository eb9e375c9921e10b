import Download from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { toast } from 'react-toastify';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { downloadCsv } from '@/components/resource/csv';
import { agingCsv, errorText, money, useAgingQuery, type AgingRow } from './invoicesApi';

type BucketKey = 'current' | 'days_1_30' | 'days_31_60' | 'days_61_90' | 'over_90';

/** AR aging: what each customer owes by how late it is, as a table and a chart, exportable to CSV. */
export default function AgingPage() {
  const [asOf, setAsOf] = useState('');
  const q = useAgingQuery({ as_of: asOf || undefined });
  const report = q.data;
  const buckets = (report?.buckets ?? []) as { key: BucketKey; label: string }[];

  const exportCsv = async () => {
    try {
      const blob = await agingCsv({ as_of: asOf || undefined });
      downloadCsv(`ar-aging-${report?.as_of ?? 'today'}.csv`, blob);
    } catch (e) {
      toast.error(errorText(e, 'Failed to export the aging report'));
    }
  };
  const cell = (r: AgingRow, k: BucketKey) => (Number(r[k]) ? money(r[k]) : '—');

  return (
    <PageBody>
      <PageHeader
        title="Accounts receivable aging"
        subtitle="Open balances by days past due: current, 1–30, 31–60, 61–90 and over 90 days."
        actions={
          <Button variant="outlined" startIcon={<Download />} onClick={exportCsv} disabled={!report}>
            Export CSV
          </Button>
        }
      />
      <Box sx={{ mb: 2 }}>
        <TextField size="small" type="date" label="As of" value={asOf} onChange={(e) => setAsOf(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} sx={{ width: 170 }} helperText={report ? `Report date ${report.as_of}` : ' '} />
      </Box>
      {q.error && <Alert severity="error">{errorText(q.error, 'Failed to fetch the aging report')}</Alert>}
      {report && (
        <>
          <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700 }}>
              Total owed {money(report.totals.total)}
            </Typography>
            <Box sx={{ height: 260 }} aria-label="Aging chart" role="img">
              <BarChart
                height={250}
                xAxis={[{ scaleType: 'band', data: buckets.map((b) => b.label) }]}
                series={[{ data: buckets.map((b) => Number(report.totals[b.key])), label: 'Owed', color: '#1976d2', valueFormatter: (v) => money(v ?? 0) }]}
                margin={{ left: 20, right: 10, top: 30, bottom: 30 }}
                hideLegend
                skipAnimation
              />
            </Box>
          </Paper>
          <Paper variant="outlined">
            <TableContainer sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label="Aging">
                <TableHead>
                  <TableRow>
                    <TableCell>Customer</TableCell>
                    {buckets.map((b) => (
                      <TableCell key={b.key} align="right">{b.label}</TableCell>
                    ))}
                    <TableCell align="right">Total</TableCell>
                    <TableCell align="right">Credit</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {report.rows.map((r) => (
                    <TableRow key={r.customer_id ?? r.customer_name}>
                      <TableCell>
                        <RouterLink to={`/invoice/statement?customer_id=${r.customer_id ?? ''}`}>{r.customer_name}</RouterLink>
                      </TableCell>
                      {buckets.map((b) => (
                        <TableCell key={b.key} align="right" sx={{ color: b.key !== 'current' && Number(r[b.key]) ? 'error.main' : undefined }}>
                          {cell(r, b.key)}
                        </TableCell>
                      ))}
                      <TableCell align="right" sx={{ fontWeight: 700 }}>{money(r.total)}</TableCell>
                      <TableCell align="right">{Number(r.credit) ? money(r.credit) : '—'}</TableCell>
                    </TableRow>
                  ))}
                  {report.rows.length === 0 && (
                    <TableRow>
                      <TableCell colSpan={buckets.length + 3}>Nothing is owed.</TableCell>
                    </TableRow>
                  )}
                  <TableRow>
                    <TableCell sx={{ fontWeight: 700 }}>Total</TableCell>
                    {buckets.map((b) => (
                      <TableCell key={b.key} align="right" sx={{ fontWeight: 700 }} data-testid={`aging-total-${b.key}`}>
                        {money(report.totals[b.key])}
                      </TableCell>
                    ))}
                    <TableCell align="right" sx={{ fontWeight: 700 }} data-testid="aging-total">{money(report.totals.total)}</TableCell>
                    <TableCell align="right" sx={{ fontWeight: 700 }}>{money(report.totals.credit)}</TableCell>
                  </TableRow>
                </TableBody>
              </Table>
            </TableContainer>
          </Paper>
        </>
      )}
    </PageBody>
  );
}
