import Box from '@mui/material/Box';

/** The FuelDesk mark, shown where the company has no logo yet. */
export function BrandMark({ size = 40, title }: { size?: number; title?: string }) {
  return (
    <Box component="svg" viewBox="0 0 64 64" width={size} height={size} role={title ? 'img' : undefined} aria-hidden={title ? undefined : true} sx={{ display: 'block' }}>
      {title && <title>{title}</title>}
      <rect width="64" height="64" rx="14" fill="#0b3d91" />
      <path d="M32 10c-7 10-14 18-14 27a14 14 0 0 0 28 0c0-9-7-17-14-27z" fill="#ffb300" />
      <path d="M32 26c-3 5-6 8-6 12a6 6 0 0 0 12 0c0-4-3-7-6-12z" fill="#fff" />
    </Box>
  );
}

export function CompanyLogo({ logoUrl, companyName, size = 40 }: { logoUrl: string | null; companyName: string; size?: number }) {
  if (!logoUrl) return <BrandMark size={size} />;
  return (
    <Box
      component="img"
      src={logoUrl}
      alt={`${companyName} logo`}
      data-testid="company-logo"
      sx={{ width: size, height: size, objectFit: 'contain', borderRadius: 1, bgcolor: '#fff', display: 'block' }}
    />
  );
}
