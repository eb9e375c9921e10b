import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useRef } from 'react';
import { useAuthedObjectUrl } from '@/components/common/useAuthedObjectUrl';

export interface LogoUploaderProps {
  /** The stored logo's file_url (needs the bearer token) or a local blob: preview. */
  url: string | null;
  companyName: string;
  uploading: boolean;
  error?: string | null;
  onPick: (file: File) => void;
  onRemove?: () => void;
}

/** Logo preview with upload and remove. */
export function LogoUploader({ url, companyName, uploading, error, onPick, onRemove }: LogoUploaderProps) {
  const input = useRef<HTMLInputElement | null>(null);
  const shown = useAuthedObjectUrl(url);
  return (
    <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
      <Box
        sx={{
          width: 112, height: 112, borderRadius: 2, border: 1, borderColor: 'divider', bgcolor: '#fff',
          display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden', position: 'relative',
        }}
      >
        {shown ? (
          <Box component="img" src={shown} alt={`${companyName || 'Company'} logo preview`} data-testid="logo-preview" sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} />
        ) : (
          <Typography variant="caption" color="text.secondary" sx={{ textAlign: 'center', px: 1 }}>
            No logo yet
          </Typography>
        )}
        {uploading && (
          <Box sx={{ position: 'absolute', inset: 0, bgcolor: 'rgba(255,255,255,0.7)', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
            <CircularProgress size={28} aria-label="Uploading logo" />
          </Box>
        )}
      </Box>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        <input
          ref={input}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          hidden
          data-testid="logo-input"
          aria-label="Logo file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) onPick(file);
            e.target.value = '';
          }}
        />
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button variant="outlined" startIcon={<CloudUploadOutlined />} onClick={() => input.current?.click()} disabled={uploading}>
            {url ? 'Change logo' : 'Upload logo'}
          </Button>
          {url && onRemove && (
            <Button color="error" startIcon={<DeleteOutlined />} onClick={onRemove} disabled={uploading}>
              Remove
            </Button>
          )}
        </Box>
        <Typography variant="caption" color={error ? 'error' : 'text.secondary'} role={error ? 'alert' : undefined}>
          {error ?? 'PNG, JPEG, GIF or WebP, up to 5 MB. Shown in the menu and on your documents.'}
        </Typography>
      </Box>
    </Box>
  );
}
