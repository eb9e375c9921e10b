import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';

export interface NotFoundText {
  title: string;
  code: string;
  body: string;
  button: string;
}

export function NotFoundPage({ text }: { text: NotFoundText }) {
  const navigate = useNavigate();
  useEffect(() => {
    document.title = 'Page not found · FuelDesk';
  }, []);
  return (
    <Box data-testid="not-found" sx={{ minHeight: '70vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', textAlign: 'center', p: 3, gap: 1 }}>
      <Typography component="h1" variant="h4" sx={{ fontWeight: 700 }}>
        {text.title}
      </Typography>
      <Typography component="p" sx={{ fontSize: { xs: 88, sm: 120 }, fontWeight: 800, lineHeight: 1, color: 'primary.main' }}>
        {text.code}
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 420 }}>
        {text.body}
      </Typography>
      <Button variant="contained" sx={{ mt: 2 }} onClick={() => navigate('/', { replace: true })}>
        {text.button}
      </Button>
    </Box>
  );
}

export default NotFoundPage;
