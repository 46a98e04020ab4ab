/**
 * Host normalisation as Nutch's BasicURLNormalizer.normalizeHostName(): percent-encoded characters
 * decoded (`example%2Ecom`, `%C3%A4gypten.de`, NUTCH-2824), lower case, IDN conversion per
 * `urlnormalizer.basic.host.idn` in the standard chosen by `urlnormalizer.basic.host.idna2008`, and the
 * optional removal of a trailing dot. Unlike Java's URL, the result is also checked (no empty label as
 * in `a..b`, only letters, digits, `-`, `_` and non-ASCII letters, a valid IDN), so a host no server
 * can have drops the URL.
 */
import { idnToAscii, idnToUnicode } from './idn.js';

export type IdnMode = '' | 'toAscii' | 'toUnicode';

export interface HostOptions {
  idn: IdnMode;
  idna2008: boolean;
  trimTrailingDot: boolean;
}

const MAX_HOST = 253;
const MAX_LABEL = 63;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function normalizeIPv6(raw: string): string | null {
  if (raw.length < 4 || raw.charCodeAt(raw.length - 1) !== 0x5d) return null;
  for (let i = 1; i < raw.length - 1; i++) {
    const c = raw.charCodeAt(i) | 0x20;
    const ok = (c >= 0x30 && c <= 0x3a) || (c >= 0x61 && c <= 0x66) || c === 0x2e;
    if (!ok) return null;
  }
  return raw.toLowerCase();
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  c |= 0x20;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** `%XX` sequences decoded as UTF-8; null when one is malformed or the bytes are not UTF-8. */
function percentDecode(raw: string): string | null {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x25) {
      const v = i + 2 < raw.length ? hexValue(raw.charCodeAt(i + 1)) * 16 + hexValue(raw.charCodeAt(i + 2)) : -1;
      if (v < 0) return null;
      bytes.push(v);
      i += 2;
    } else if (c < 0x80) {
      bytes.push(c);
    } else {
      const cp = raw.codePointAt(i) as number;
      for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) bytes.push(b);
      if (cp > 0xffff) i++;
    }
  }
  try {
    return UTF8.decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}

/** The normalised host, or null when it is not a valid host name. */
export function normalizeHost(raw: string, opts: HostOptions): string | null {
  if (raw === '') return null;
  if (raw.charCodeAt(0) === 0x5b) return normalizeIPv6(raw);
  if (raw.includes('%')) {
    const decoded = percentDecode(raw);
    if (decoded === null || decoded === '') return null;
    raw = decoded;
  }
  if (raw.length > MAX_HOST + 1) return null;
  let ascii = true;
  let upper = false;
  let labelStart = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x2e) {
      if (i === labelStart) return null; // empty label: ".a", "a..b"
      if (ascii && i - labelStart > MAX_LABEL) return null;
      labelStart = i + 1;
    } else if (c >= 0x80) {
      ascii = false;
    } else if (c >= 0x41 && c <= 0x5a) {
      upper = true;
    } else if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f)) {
      return null;
    }
  }
  if (ascii && raw.length - labelStart > MAX_LABEL) return null;
  let host = upper || !ascii ? raw.toLowerCase() : raw;
  if (!ascii) {
    const punycode = idnToAscii(host, opts.idna2008);
    if (punycode === '') return null; // invalid IDN
    if (opts.idn === 'toAscii') host = punycode;
  } else if (host.includes('xn--')) {
    if (idnToAscii(host, true) === '') return null; // invalid Punycode label
    if (opts.idn === 'toUnicode') host = idnToUnicode(host, opts.idna2008);
  }
  if (opts.trimTrailingDot && host.charCodeAt(host.length - 1) === 0x2e) host = host.slice(0, -1);
  return host;
}
