import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Route, Routes } from 'react-router-dom';
import { PageBody, PageHeader } from '@/components/common/PageHeader';
import { isBusy, useParsedDocsQuery } from './billparseApi';
import ReviewPage from './ReviewPage';
import { FileRow, UploadPanel } from './UploadPanel';

function RecentDocuments() {
  const args = { page: 1, size: 20 };
  const q = useParsedDocsQuery(args);
  const items = q.data?.items ?? [];
  const busy = items.some((d) => isBusy(d.status));
  useParsedDocsQuery(args, { pollingInterval: busy ? 2000 : 0 });
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
        Recent invoices
      </Typography>
      {!q.isLoading && items.length === 0 && (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          No invoice uploaded yet.
        </Typography>
      )}
      <Box data-testid="recent-documents">
        {items.map((d) => (
          <FileRow key={d.id} doc={d} />
        ))}
      </Box>
    </Paper>
  );
}

function UploadHome() {
  return (
    <PageBody>
      <PageHeader title="Bill Parser" subtitle="Automated bill processing (beta): upload supplier invoices, check what was read, create the bills." />
      <UploadPanel />
      <RecentDocuments />
    </PageBody>
  );
}

/** /invoice-parse/*: uploads and their progress; /invoice-parse/:id reviews one invoice. */
export default function BillParserPage() {
  return (
    <Routes>
      <Route index element={<UploadHome />} />
      <Route path=":id" element={<ReviewPage />} />
    </Routes>
  );
}
