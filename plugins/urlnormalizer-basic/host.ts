/**
 * Host normalisation: lower case, syntax check (no empty label as in `a..b`, only letters, digits,
 * `-`, `_` and non-ASCII letters), IDN conversion per `urlnormalizer.basic.host.idn` and the
 * optional removal of a trailing dot, as Nutch's BasicURLNormalizer.normalizeHostName().
 */
import { domainToASCII, domainToUnicode } from 'node:url';

export type IdnMode = '' | 'toAscii' | 'toUnicode';

export interface HostOptions {
  idn: IdnMode;
  trimTrailingDot: boolean;
}

const MAX_HOST = 253;
const MAX_LABEL = 63;

function normalizeIPv6(raw: string): string | null {
  if (raw.length < 4 || raw.charCodeAt(raw.length - 1) !== 0x5d) return null;
  for (let i = 1; i < raw.length - 1; i++) {
    const c = raw.charCodeAt(i) | 0x20;
    const ok = (c >= 0x30 && c <= 0x3a) || (c >= 0x61 && c <= 0x66) || c === 0x2e;
    if (!ok) return null;
  }
  return raw.toLowerCase();
}

/** The normalised host, or null when it is not a valid host name. */
export function normalizeHost(raw: string, opts: HostOptions): string | null {
  if (raw === '') return null;
  if (raw.charCodeAt(0) === 0x5b) return normalizeIPv6(raw);
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
  if (opts.trimTrailingDot && host.charCodeAt(host.length - 1) === 0x2e) host = host.slice(0, -1);
  if (!ascii) {
    const punycode = domainToASCII(host);
    if (punycode === '') return null; // invalid IDN
    if (opts.idn === 'toAscii') host = punycode;
  } else if (host.includes('xn--')) {
    if (domainToASCII(host) === '') return null; // invalid Punycode label
    if (opts.idn === 'toUnicode') host = domainToUnicode(host);
  }
  return host;
}
