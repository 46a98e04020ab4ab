/**
 * The content type when a server sends none: Nutch resolves it with MimeUtil (Tika magic, then the URL
 * extension); here a few magic prefixes, then the extension, then application/octet-stream.
 */
const MAGIC: [RegExp, string][] = [
  [/^\s*<!doctype\s+html|^\s*<html|^\s*<head|^\s*<body/i, 'text/html'],
  [/^\s*<\?xml[^>]*>\s*<rss/i, 'application/rss+xml'],
  [/^\s*<\?xml[^>]*>\s*<feed/i, 'application/atom+xml'],
  [/^\s*<\?xml/i, 'application/xml'],
  [/^%PDF-/, 'application/pdf'],
  [/^\{\s*"/, 'application/json'],
];

const EXTENSIONS: Record<string, string> = {
  html: 'text/html', htm: 'text/html', txt: 'text/plain', xml: 'application/xml', pdf: 'application/pdf', json: 'application/json',
  css: 'text/css', js: 'text/javascript', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif',
};

export function sniffContentType(url: string, bytes: Uint8Array): string {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 512)).toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '');
  for (const [re, type] of MAGIC) if (re.test(head)) return type;
  let path = '';
  try {
    path = new URL(url).pathname;
  } catch {
    // fall through to the default
  }
  const m = /\.([a-z0-9]{1,5})$/i.exec(path);
  return (m && EXTENSIONS[m[1]!.toLowerCase()]) || 'application/octet-stream';
}
