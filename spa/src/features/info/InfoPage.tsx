import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { ABOUT, EULA, PRIVACY, type InfoDocument } from './content';

const DOCS: Record<'about' | 'eula' | 'privacy', InfoDocument> = { about: ABOUT, eula: EULA, privacy: PRIVACY };

export default function InfoPage({ kind }: { kind: 'about' | 'eula' | 'privacy' }) {
  const doc = DOCS[kind];
  useEffect(() => {
    document.title = `${doc.title} · FuelDesk`;
  }, [doc.title]);
  return (
    <Box component="article" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 820, mx: 'auto' }}>
      <Typography component="h1" variant="h4" sx={{ fontWeight: 700 }}>
        {doc.title}
      </Typography>
      {doc.updated && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          Last updated {doc.updated}
        </Typography>
      )}
      <Typography sx={{ mt: 2 }}>{doc.intro}</Typography>
      {doc.sections.map((s) => (
        <Box component="section" key={s.heading} sx={{ mt: 3 }}>
          <Typography component="h2" variant="h6" sx={{ fontWeight: 700 }}>
            {s.heading}
          </Typography>
          {s.paragraphs.map((p) => (
            <Typography key={p.slice(0, 40)} sx={{ mt: 1 }} color="text.primary">
              {p}
            </Typography>
          ))}
        </Box>
      ))}
    </Box>
  );
}
