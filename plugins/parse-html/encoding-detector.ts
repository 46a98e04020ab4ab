/**
 * Character encoding of an HTML page, in Nutch's order of clues: byte-order mark, the HTTP
 * Content-Type charset, a `<meta charset>` / http-equiv within `parser.html.sniff.bytes`, a statistical
 * detector (chardet), then `parser.character.encoding.default`. Labels are resolved the WHATWG way
 * (TextDecoder), so `iso-8859-1` decodes as windows-1252, as browsers do; an unknown label is skipped.
 */
import { TextDecoder } from 'node:util';
import { analyse } from 'chardet';

export type EncodingSource = 'bom' | 'header' | 'meta' | 'detector' | 'default';

export interface DetectedEncoding {
  /** WHATWG encoding name (utf-8, windows-1252, shift_jis, …). */
  encoding: string;
  source: EncodingSource;
}

export interface EncodingOptions {
  sniffBytes: number;
  defaultEncoding: string;
}

const decoders = new Map<string, TextDecoder>();

/** The WHATWG name for a charset label, or null when the label is unknown. */
export function canonicalEncoding(label: string | null | undefined): string | null {
  if (!label) return null;
  const clean = label.trim().replace(/^["']|["']$/g, '').toLowerCase();
  if (!clean || clean.length > 40) return null;
  try {
    return decoderFor(clean).encoding;
  } catch {
    return null;
  }
}

function decoderFor(encoding: string): TextDecoder {
  let d = decoders.get(encoding);
  if (!d) {
    d = new TextDecoder(encoding);
    decoders.set(encoding, d);
    if (d.encoding !== encoding) decoders.set(d.encoding, d);
  }
  return d;
}

/** Decodes bytes; a leading BOM of the same encoding is dropped, invalid sequences become U+FFFD. */
export function decode(bytes: Uint8Array, encoding: string): string {
  if (encoding === 'windows-1252') return decodeWindows1252(bytes);
  return decoderFor(encoding).decode(bytes);
}

/** windows-1252's 0x80-0x9F (undefined bytes map to the C1 control of the same value, as WHATWG). */
const CP1252_HIGH = '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f'
  + '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
const C1 = /[\u0080-\u009f]/g;

/**
 * Node's TextDecoder decodes windows-1252 as ISO-8859-1 (0x80-0x9F become C1 controls instead of
 * curly quotes, the euro sign, …), so the web's most common legacy charset is decoded here.
 */
function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(C1, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

/** The charset parameter of a Content-Type value. */
export function charsetFromContentType(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const m = /charset\s*=\s*["']?([^;"'\s,]+)/i.exec(contentType);
  return m ? m[1]! : null;
}

export function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

/**
 * UTF-16 without a BOM: ASCII markup in UTF-16 has a NUL in every other byte (odd positions for LE,
 * even for BE) and almost none in the others. Null when the first KiB does not look like that.
 */
export function bomlessUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, 1024) & ~1;
  if (n < 8) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul > pairs * 0.6 && evenNul < pairs * 0.05) return 'utf-16le';
  if (evenNul > pairs * 0.6 && oddNul < pairs * 0.05) return 'utf-16be';
  return null;
}

const META_CHARSET = /<meta\s[^>]*?charset\s*=\s*["']?\s*([a-z][-_0-9a-z.:]*)/i;

/** A `<meta charset>` or `<meta http-equiv="Content-Type" content="…; charset=…">` in the first bytes. */
export function sniffMetaCharset(bytes: Uint8Array, sniffBytes: number): string | null {
  const n = Math.min(bytes.length, sniffBytes);
  if (n <= 0) return null;
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, n).toString('latin1');
  const m = META_CHARSET.exec(head);
  return m ? m[1]! : null;
}

/** Scans up to `limit` bytes: 'ascii' (nothing above 0x7f), 'utf-8' (valid multi-byte UTF-8), or 'other'. */
function classifyBytes(bytes: Uint8Array, limit: number): 'ascii' | 'utf-8' | 'other' {
  const n = Math.min(bytes.length, limit);
  let i = 0;
  let sawMultiByte = false;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) need = 2;
    else if (b >= 0xf0 && b <= 0xf4) need = 3;
    else return 'other';
    if (i + need >= n && n < bytes.length) break; // sequence cut by the sample limit
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return 'other';
    }
    sawMultiByte = true;
    i += need + 1;
  }
  return sawMultiByte ? 'utf-8' : 'ascii';
}

const DETECTOR_SAMPLE = 64 * 1024;
/** chardet confidences are 0-100; below this the guess is noise and the default is better. */
const MIN_DETECTOR_CONFIDENCE = 10;

/** Statistical guess, or null when the bytes are plain ASCII or no guess is confident enough. */
export function detectStatistically(bytes: Uint8Array): string | null {
  const kind = classifyBytes(bytes, DETECTOR_SAMPLE);
  if (kind === 'ascii') return null;
  if (kind === 'utf-8') return 'utf-8';
  for (const match of analyse(bytes.subarray(0, DETECTOR_SAMPLE))) {
    if (match.confidence < MIN_DETECTOR_CONFIDENCE) break;
    const enc = canonicalEncoding(match.name);
    if (enc) return enc;
  }
  return null;
}

export function detectEncoding(bytes: Uint8Array, contentType: string | undefined, opts: EncodingOptions): DetectedEncoding {
  const bom = bomEncoding(bytes);
  if (bom) return { encoding: bom, source: 'bom' };
  const header = canonicalEncoding(charsetFromContentType(contentType));
  if (header) return { encoding: header, source: 'header' };
  let meta = canonicalEncoding(sniffMetaCharset(bytes, opts.sniffBytes));
  // A page that reached us as bytes cannot be UTF-16 without a BOM; HTML says treat it as UTF-8.
  if (meta === 'utf-16le' || meta === 'utf-16be') meta = 'utf-8';
  if (meta) return { encoding: meta, source: 'meta' };
  const detected = detectStatistically(bytes);
  if (detected) return { encoding: detected, source: 'detector' };
  return { encoding: canonicalEncoding(opts.defaultEncoding) ?? 'windows-1252', source: 'default' };
}
