/**
 * Nutch's UrlValidator (from commons-validator): accepts only URLs made of printable US-ASCII with a
 * letters-only scheme, an authority that is a dotted IPv4 address (each part <= 255) or a host
 * name of at least two labels whose top-level label starts with a letter and is 2 to
 * `urlfilter.tld.length` characters long, an optional port of 1-5 digits, no user info, a path of
 * the allowed characters that does not climb above the root with `..`, and any query.
 * Unlike Nutch, URLs longer than db.max.outlink.length and a `%` not followed by two hex digits
 * (in path or query) are invalid too (RFC 3986). One pass over the characters instead of Nutch's
 * chain of regular expressions: the default chain runs this for every URL.
 */
import type { PluginContext, URLFilter } from '../../sdk/plugin.js';
import { maxURLLength } from '../lib-regex-filter/index.js';

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isAlpha = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** Path characters Nutch allows besides letters and digits: `-_:@&?=+,.!/~*'%$;()`. */
const PATH_CHARS = new Uint8Array(128);
for (const ch of "-_:@&?=+,.!/~*'%$;()") PATH_CHARS[ch.charCodeAt(0)] = 1;
for (let c = 0; c < 128; c++) if (isDigit(c) || isAlpha(c)) PATH_CHARS[c] = 1;

/** A `%` at i is followed by two hex digits before `end`. */
function goodPercent(s: string, i: number, end: number): boolean {
  return i + 2 < end && isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2));
}

export class UrlValidator implements URLFilter {
  private readonly tldLength: number;
  private readonly maxLength: number;

  constructor(ctx: PluginContext) {
    this.tldLength = ctx.conf.getInt('urlfilter.tld.length', 8);
    this.maxLength = maxURLLength(ctx.conf);
  }

  filter(url: string): string | null {
    return typeof url === 'string' && url.length > 0 && url.length <= this.maxLength && this.isValid(url) ? url : null;
  }

  private isValid(s: string): boolean {
    const n = s.length;
    // Printable US-ASCII only; the scheme ends at the first ':' and is letters only.
    let colon = -1;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x21 || c > 0x7e) return false;
      if (colon === -1 && (c === 0x3a || c === 0x2f || c === 0x3f || c === 0x23)) {
        if (c !== 0x3a || i === 0) return false;
        colon = i;
      }
    }
    if (colon === -1) return false;
    for (let i = 0; i < colon; i++) if (!isAlpha(s.charCodeAt(i))) return false;
    // The authority: "//" then up to '/', '?' or '#'.
    if (s.charCodeAt(colon + 1) !== 0x2f || s.charCodeAt(colon + 2) !== 0x2f) return false;
    const authStart = colon + 3;
    let authEnd = authStart;
    while (authEnd < n) {
      const c = s.charCodeAt(authEnd);
      if (c === 0x2f || c === 0x3f || c === 0x23) break;
      authEnd++;
    }
    if (!this.isValidAuthority(s, authStart, authEnd)) return false;
    // Path up to '?' or '#', query up to '#'.
    let pathEnd = authEnd;
    while (pathEnd < n) {
      const c = s.charCodeAt(pathEnd);
      if (c === 0x3f || c === 0x23) break;
      pathEnd++;
    }
    if (!this.isValidPath(s, authEnd, pathEnd)) return false;
    if (s.charCodeAt(pathEnd) === 0x3f) {
      const hash = s.indexOf('#', pathEnd);
      const queryEnd = hash === -1 ? n : hash;
      for (let q = s.indexOf('%', pathEnd); q !== -1 && q < queryEnd; q = s.indexOf('%', q + 1)) {
        if (!goodPercent(s, q, queryEnd)) return false;
      }
    }
    return true;
  }

  /** host chars [a-zA-Z0-9.-]*, then optionally ':' and 1-5 digits, then nothing. */
  private isValidAuthority(s: string, start: number, end: number): boolean {
    let i = start;
    while (i < end) {
      const c = s.charCodeAt(i);
      if (!(isAlpha(c) || isDigit(c) || c === 0x2d || c === 0x2e)) break;
      i++;
    }
    const hostEnd = i;
    if (i < end) {
      if (s.charCodeAt(i) !== 0x3a) return false; // user info, IPv6 brackets, other characters
      const digits = end - i - 1;
      if (digits < 1 || digits > 5) return false;
      for (let j = i + 1; j < end; j++) if (!isDigit(s.charCodeAt(j))) return false;
    }
    return this.isValidHost(s, start, hostEnd);
  }

  private isValidHost(s: string, start: number, end: number): boolean {
    if (start === end) return false;
    // Labels: non-empty, separated by single dots.
    let labels = 0;
    let labelStart = start;
    let allDigitsIPv4 = true;
    let lastLabelStart = start;
    for (let i = start; i <= end; i++) {
      const c = i < end ? s.charCodeAt(i) : 0x2e;
      if (c === 0x2e) {
        const len = i - labelStart;
        if (len === 0) return false;
        if (len > 3) allDigitsIPv4 = false;
        labels++;
        lastLabelStart = labelStart;
        labelStart = i + 1;
      } else if (!isDigit(c)) {
        allDigitsIPv4 = false;
      }
    }
    if (allDigitsIPv4 && labels === 4) {
      let value = 0;
      for (let i = start; i <= end; i++) {
        const c = i < end ? s.charCodeAt(i) : 0x2e;
        if (c === 0x2e) {
          if (value > 255) return false;
          value = 0;
        } else {
          value = value * 10 + (c - 0x30);
        }
      }
      return true;
    }
    const tld = end - lastLabelStart;
    if (tld < 2 || tld > this.tldLength) return false;
    if (!isAlpha(s.charCodeAt(lastLabelStart))) return false;
    return labels >= 2;
  }

  /** Empty, or '/' then allowed characters; `%` needs two hex digits; `..` may not climb above the root. */
  private isValidPath(s: string, start: number, end: number): boolean {
    if (start === end) return true;
    if (s.charCodeAt(start) !== 0x2f) return false;
    let slashes = 0;
    let doubleSlashes = 0;
    let doubleDots = 0;
    for (let i = start; i < end; i++) {
      const c = s.charCodeAt(i);
      if (!PATH_CHARS[c]) return false;
      if (c === 0x25 && !goodPercent(s, i, end)) return false;
      if (c === 0x2f) {
        slashes++;
        if (s.charCodeAt(i + 1) === 0x2f && i + 1 < end) doubleSlashes++;
      } else if (c === 0x2e && i + 1 < end && s.charCodeAt(i + 1) === 0x2e) {
        doubleDots++;
      }
    }
    return doubleDots <= 0 || slashes - doubleSlashes - 1 > doubleDots;
  }
}
