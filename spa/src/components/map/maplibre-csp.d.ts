// MapLibre's CSP build (same API as 'maplibre-gl'; typed there).
declare module 'maplibre-gl/dist/maplibre-gl-csp.js' {
  const maplibre: unknown;
  export default maplibre;
}
