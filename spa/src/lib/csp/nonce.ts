/**
 * The page's Content-Security-Policy nonce (platform/core/csp.py, docs/security.md). The server puts a
 * fresh one on <meta property="csp-nonce"> and in the policy of every page; a <style> element is
 * applied only when it carries it, so emotion (MUI), react-toastify and any <style> the app renders
 * take it from here. Browsers hide a nonce attribute's value once parsed: read the `nonce` property.
 */
export const NONCE_PLACEHOLDER = '__CSP_NONCE__';

export function cspNonce(doc: Document | undefined = typeof document === 'undefined' ? undefined : document): string | undefined {
  const meta = doc?.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  const nonce = meta?.nonce || meta?.getAttribute('nonce') || '';
  return nonce && nonce !== NONCE_PLACEHOLDER ? nonce : undefined;
}

/** HTML for a `srcdoc` frame (which inherits the page's policy) with the nonce on its <style> elements. */
export function withStyleNonce(html: string, nonce: string | undefined = cspNonce()): string {
  if (!nonce) return html;
  return html.replace(/<style(?=[\s>])(?![^>]*\snonce=)/gi, `<style nonce="${nonce}"`);
}
