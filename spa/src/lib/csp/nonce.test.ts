import { cspNonce, withStyleNonce } from './nonce';

function docWith(meta: string): Document {
  const doc = document.implementation.createHTMLDocument('t');
  doc.head.innerHTML = meta;
  return doc;
}

describe('the CSP nonce', () => {
  it('is read from the meta the server signs', () => {
    expect(cspNonce(docWith('<meta property="csp-nonce" nonce="abc123">'))).toBe('abc123');
  });

  it('is absent without the meta or with the unsigned placeholder', () => {
    expect(cspNonce(docWith(''))).toBeUndefined();
    expect(cspNonce(docWith('<meta property="csp-nonce" nonce="__CSP_NONCE__">'))).toBeUndefined();
  });

  it('is put on every <style> of a srcdoc document, once', () => {
    const html = '<html><head><style>.a{}</style><STYLE media="print">.b{}</STYLE><style nonce="x">.c{}</style></head><body><p style="color:red">x</p></body></html>';
    expect(withStyleNonce(html, 'n1')).toBe(
      '<html><head><style nonce="n1">.a{}</style><style nonce="n1" media="print">.b{}</STYLE><style nonce="x">.c{}</style></head><body><p style="color:red">x</p></body></html>',
    );
    expect(withStyleNonce(html, undefined)).toBe(html);
  });
});
