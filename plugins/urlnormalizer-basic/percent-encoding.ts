/**
 * Percent-encoding normalisation of a path or query, in one pass (as Nutch's BasicURLNormalizer
 * unescapePath + escapePath): %XX of an unreserved character (RFC 3986 §2.3: ALPHA, DIGIT, - . _ ~)
 * is decoded, every other %XX keeps its encoding with upper-case hex, and characters a URL may not
 * hold (controls, space, " < > [ \ ] ^ ` { | }, DEL, non-ASCII as UTF-8) are encoded. A `%` that does
 * not start a valid escape is itself encoded as `%25`, as Nutch's escapePath (`?q=100%` is a real URL).
 */
const HEX = '0123456789ABCDEF';
const KEEP = 0;
const ENCODE = 1;
const UNRESERVED = 2;

const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (c <= 0x20 || c === 0x7f || '"<>[\\]^`{|}'.includes(String.fromCharCode(c))) CLASS[c] = ENCODE;
  else if (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(c))) CLASS[c] = UNRESERVED;
  else CLASS[c] = KEEP;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

function percentByte(b: number): string {
  return '%' + HEX[b >> 4] + HEX[b & 15];
}

function utf8Percent(cp: number): string {
  if (cp < 0x800) return percentByte(0xc0 | (cp >> 6)) + percentByte(0x80 | (cp & 63));
  if (cp < 0x10000) return percentByte(0xe0 | (cp >> 12)) + percentByte(0x80 | ((cp >> 6) & 63)) + percentByte(0x80 | (cp & 63));
  return percentByte(0xf0 | (cp >> 18)) + percentByte(0x80 | ((cp >> 12) & 63)) + percentByte(0x80 | ((cp >> 6) & 63)) + percentByte(0x80 | (cp & 63));
}

/** The normalised form of `s.slice(from, to)`, or null when it holds a lone UTF-16 surrogate. */
export function normalizePercentEncoding(s: string, from: number, to: number): string | null {
  let out = '';
  let last = from;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      const c1 = i + 1 < to ? s.charCodeAt(i + 1) : 0;
      const c2 = i + 2 < to ? s.charCodeAt(i + 2) : 0;
      const h1 = hexValue(c1);
      const h2 = hexValue(c2);
      if (h1 < 0 || h2 < 0) {
        out += s.slice(last, i) + '%25'; // a stray '%'
        last = i + 1;
        continue;
      }
      const v = h1 * 16 + h2;
      if (v < 128 && CLASS[v] === UNRESERVED) {
        out += s.slice(last, i) + String.fromCharCode(v);
        last = i + 3;
      } else if (c1 >= 0x61 || c2 >= 0x61) {
        out += s.slice(last, i) + percentByte(v);
        last = i + 3;
      }
      i += 2;
    } else if (c < 128) {
      if (CLASS[c] === ENCODE) {
        out += s.slice(last, i) + percentByte(c);
        last = i + 1;
      }
    } else {
      let cp = c;
      let width = 1;
      if (c >= 0xd800 && c <= 0xdbff) {
        const d = i + 1 < to ? s.charCodeAt(i + 1) : 0;
        if (d < 0xdc00 || d > 0xdfff) return null;
        cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        width = 2;
      } else if (c >= 0xdc00 && c <= 0xdfff) {
        return null;
      }
      out += s.slice(last, i) + utf8Percent(cp);
      last = i + width;
      i += width - 1;
    }
  }
  return last === from ? s.slice(from, to) : out + s.slice(last, to);
}
