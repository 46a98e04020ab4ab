/** Content type of a local file by its extension (Nutch asks Tika; the common types suffice here). */
const TYPES: Record<string, string> = {
  html: 'text/html', htm: 'text/html', xhtml: 'application/xhtml+xml', xml: 'application/xml', txt: 'text/plain',
  text: 'text/plain', md: 'text/markdown', csv: 'text/csv', json: 'application/json', js: 'text/javascript',
  css: 'text/css', pdf: 'application/pdf', rss: 'application/rss+xml', atom: 'application/atom+xml',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', svg: 'image/svg+xml', zip: 'application/zip',
  gz: 'application/gzip', doc: 'application/msword', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export function mimeTypeOf(path: string): string {
  const dot = path.lastIndexOf('.');
  const slash = path.lastIndexOf('/');
  if (dot <= slash) return 'application/octet-stream';
  return TYPES[path.slice(dot + 1).toLowerCase()] ?? 'application/octet-stream';
}
