/**
 * Content-type detection from magic bytes, for content whose declared type is missing or generic
 * (application/octet-stream and friends), as Nutch's MimeUtil.autoResolveContentType does with Tika's
 * magic before choosing a parser. Only the first bytes are read, plus, for a zip, its central
 * directory's entry names (no decompression): enough to tell DOCX/XLSX/PPTX, ODF and EPUB apart.
 * Content with a specific declared type never comes here, so an HTML page pays nothing.
 */

/** Types that say nothing about the content: the parser is chosen from the bytes instead. */
const GENERIC_TYPES = new Set([
  '', 'application/octet-stream', 'binary/octet-stream', 'application/unknown', 'application/x-unknown', 'unknown/unknown',
  'application/binary', 'application/download', 'application/x-download', 'application/force-download',
  // A zip is refined to the document format it packs (a DOCX served as application/zip).
  'application/zip', 'application/x-zip', 'application/x-zip-compressed',
]);

const ZIP_DOCUMENT = /^application\/(?:vnd\.openxmlformats-officedocument\.|vnd\.oasis\.opendocument\.|epub\+zip$)/;

export const OOXML_TYPES = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
} as const;

/** The media type without parameters, lower-cased. */
export function baseContentType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export function isGenericContentType(contentType: string | undefined): boolean {
  return GENERIC_TYPES.has(baseContentType(contentType));
}

/** The declared type when it is specific, else the type the bytes show (application/octet-stream when unknown). */
export function resolveContentType(declared: string | undefined, bytes: Uint8Array): string {
  if (!isGenericContentType(declared)) return declared!;
  const detected = detectContentType(bytes);
  // A declared zip is only refined to the document format it packs; anything else keeps the server's word.
  if (baseContentType(declared).includes('zip') && (detected === 'application/zip' || !ZIP_DOCUMENT.test(detected))) return declared!;
  return detected;
}

export function detectContentType(bytes: Uint8Array): string {
  const b = bytes;
  const starts = (sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf'; // %PDF-
  if (starts([0x50, 0x4b, 0x03, 0x04]) || starts([0x50, 0x4b, 0x05, 0x06])) return zipContentType(b);
  if (starts([0x7b, 0x5c, 0x72, 0x74, 0x66])) return 'application/rtf'; // {\rtf
  if (starts([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'application/x-tika-msoffice';
  if (starts([0x89, 0x50, 0x4e, 0x47])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (starts([0x1f, 0x8b])) return 'application/gzip';
  return markupContentType(b) ?? (looksLikeText(b) ? 'text/plain' : 'application/octet-stream');
}

/** Elements that open an HTML document or fragment, as Tika's text/html magic (`<title`, `<script`, …). */
const HTML_FIRST_TAGS = /^(?:html|head|body|title|meta|link|script|style|iframe|h[1-6]|p|div|table|a|b|br|font|center)$/;

/** XML and HTML by their first element (after BOM, prolog, comments and doctype). Markup without an
 * XML declaration counts as XML only for the roots a feed or SVG reader recognises. */
function markupContentType(bytes: Uint8Array): string | null {
  let head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 4096)).toString('latin1');
  if (head.startsWith('\xef\xbb\xbf')) head = head.slice(3);
  const trimmed = head.trimStart();
  if (!trimmed.startsWith('<')) return null;
  if (/^<!doctype\s+html/i.test(trimmed)) return 'text/html';
  const isXml = trimmed.startsWith('<?xml');
  const root = /<([A-Za-z_][\w.:-]*)/.exec(trimmed.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<![^>]*>/g, ''));
  const name = root?.[1]?.toLowerCase() ?? '';
  const local = name.replace(/^.*:/, '');
  if (local === 'html') return isXml ? 'application/xhtml+xml' : 'text/html';
  if (local === 'rss') return 'application/rss+xml';
  if (local === 'feed' && /http:\/\/www\.w3\.org\/2005\/Atom/.test(head)) return 'application/atom+xml';
  if (name === 'rdf:rdf' && /http:\/\/purl\.org\/rss\/1\.0\//.test(head)) return 'application/rss+xml';
  if (local === 'svg') return 'image/svg+xml';
  if (isXml) return 'application/xml';
  return HTML_FIRST_TAGS.test(name) ? 'text/html' : null;
}

/** Printable text in the first KiB: no NUL and few other control bytes. */
function looksLikeText(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 1024);
  if (n === 0) return false;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if (c === 0) return false;
    if (c < 0x09 || (c > 0x0d && c < 0x20 && c !== 0x1b)) control++;
  }
  return control / n < 0.02;
}

/** ODF and EPUB name themselves in a first, stored `mimetype` entry; OOXML by its parts' folders. */
function zipContentType(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length > 38 && view.getUint16(8, true) === 0) {
    const nameLength = view.getUint16(26, true);
    const extraLength = view.getUint16(28, true);
    const name = Buffer.from(bytes.buffer, bytes.byteOffset + 30, Math.min(nameLength, 64)).toString('latin1');
    if (name === 'mimetype') {
      const size = view.getUint32(18, true);
      const start = 30 + nameLength + extraLength;
      const mime = Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.max(0, Math.min(size, 128, bytes.length - start))).toString('latin1').trim();
      if (/^application\/(?:vnd\.oasis\.opendocument\.[\w.-]+|epub\+zip)$/.test(mime)) return mime;
    }
  }
  const names = zipEntryNames(bytes, view);
  if (names.has('[Content_Types].xml')) {
    if (names.has('word/document.xml')) return OOXML_TYPES.docx;
    if (names.has('xl/workbook.xml')) return OOXML_TYPES.xlsx;
    if (names.has('ppt/presentation.xml')) return OOXML_TYPES.pptx;
  }
  if (names.has('META-INF/container.xml')) return 'application/epub+zip';
  return 'application/zip';
}

/** Entry names from the central directory (up to 2,000); empty when the archive is cut short. */
function zipEntryNames(bytes: Uint8Array, view: DataView): Set<string> {
  const names = new Set<string>();
  const floor = Math.max(0, bytes.length - 65557);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= floor; i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return names;
  const count = Math.min(view.getUint16(eocd + 10, true), 2000);
  let p = view.getUint32(eocd + 16, true);
  for (let i = 0; i < count && p + 46 <= bytes.length && view.getUint32(p, true) === 0x02014b50; i++) {
    const nameLength = view.getUint16(p + 28, true);
    if (p + 46 + nameLength > bytes.length) break;
    names.add(Buffer.from(bytes.buffer, bytes.byteOffset + p + 46, nameLength).toString('utf8'));
    p += 46 + nameLength + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
  }
  return names;
}
