import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { buildHeaders } from '@/lib/api/http';
import type { Place } from './review';

export interface Mark {
  place: Place;
  low: boolean;
  focused: boolean;
  label: string;
}

/** The page as a PNG rendered by the server (fetched with the token), never the PDF itself. */
function usePageImage(docId: number, page: number): { url: string | null; failed: boolean } {
  const [state, setState] = useState<{ key: string; url: string | null; failed: boolean }>({ key: '', url: null, failed: false });
  const key = `${docId}/${page}`;
  useEffect(() => {
    let created: string | null = null;
    let cancelled = false;
    const controller = new AbortController();
    globalThis
      .fetch(`/api/parse_document/${docId}/pages/${page}`, { headers: buildHeaders(undefined, { Accept: 'image/png' }), signal: controller.signal })
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(String(r.status)))))
      .then((blob) => {
        if (cancelled) return;
        created = URL.createObjectURL(blob);
        setState({ key, url: created, failed: false });
      })
      .catch(() => {
        if (!cancelled) setState({ key, url: null, failed: true });
      });
    return () => {
      cancelled = true;
      controller.abort();
      if (created) URL.revokeObjectURL(created);
    };
  }, [docId, page, key]);
  return state.key === key ? { url: state.url, failed: state.failed } : { url: null, failed: false };
}

export function PageView({
  docId,
  pages,
  sizes,
  page,
  onPage,
  marks,
}: {
  docId: number;
  pages: number;
  sizes: number[][];
  page: number;
  onPage: (p: number) => void;
  marks: Mark[];
}) {
  const { url, failed } = usePageImage(docId, page);
  const [w, h] = sizes[page - 1] ?? [612, 792];
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="subtitle2">
          Page {page} of {pages}
        </Typography>
        <Box>
          <IconButton size="small" aria-label="Previous page" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            <ChevronLeft />
          </IconButton>
          <IconButton size="small" aria-label="Next page" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            <ChevronRight />
          </IconButton>
        </Box>
      </Box>
      <Box
        sx={{ position: 'relative', width: '100%', aspectRatio: `${w} / ${h}`, border: 1, borderColor: 'divider', bgcolor: 'grey.100', borderRadius: 1, overflow: 'hidden' }}
        data-testid="page-view"
      >
        {url && <Box component="img" src={url} alt={`Page ${page} of the invoice`} sx={{ width: '100%', height: '100%', display: 'block' }} />}
        {failed && (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            The page could not be shown.
          </Typography>
        )}
        {marks
          .filter((m) => m.place.page === page)
          .map((m, i) => {
            const [x0, top, x1, bottom] = m.place.bbox;
            return (
              <Box
                key={`${m.label}-${i}`}
                title={m.label}
                sx={{
                  position: 'absolute',
                  left: `${(x0 / w) * 100}%`,
                  top: `${(top / h) * 100}%`,
                  width: `${((x1 - x0) / w) * 100}%`,
                  height: `${((bottom - top) / h) * 100}%`,
                  outline: m.focused ? '2px solid' : '1.5px dashed',
                  outlineColor: m.focused ? 'primary.main' : m.low ? 'warning.main' : 'success.light',
                  bgcolor: m.focused ? 'rgba(25,118,210,0.12)' : m.low ? 'rgba(237,108,2,0.12)' : 'transparent',
                  pointerEvents: 'none',
                }}
              />
            );
          })}
      </Box>
    </Box>
  );
}
