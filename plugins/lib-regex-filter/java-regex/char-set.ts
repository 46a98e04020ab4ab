/**
 * Code-point sets for translating Java character classes: sorted, merged [lo, hi] ranges, so Java's
 * union (`[a[b]]`), intersection (`&&`), negation and ASCII case-insensitivity are computed exactly
 * rather than approximated with JavaScript syntax that does not exist before the `v` flag.
 */
export type Ranges = Array<[number, number]>;

export const MAX_CODE_POINT = 0x10ffff;

export function normalize(ranges: Ranges): Ranges {
  const sorted = ranges.filter(([lo, hi]) => lo <= hi).sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function complement(ranges: Ranges): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (const [lo, hi] of normalize(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

export function intersect(a: Ranges, b: Ranges): Ranges {
  const out: Ranges = [];
  const x = normalize(a);
  const y = normalize(b);
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    const lo = Math.max(x[i][0], y[j][0]);
    const hi = Math.min(x[i][1], y[j][1]);
    if (lo <= hi) out.push([lo, hi]);
    if (x[i][1] < y[j][1]) i++;
    else j++;
  }
  return out;
}

/** Java's CASE_INSENSITIVE without UNICODE_CASE: only US-ASCII letters match their other case. */
export function addAsciiCaseVariants(ranges: Ranges): Ranges {
  const extra: Ranges = [];
  for (const [lo, hi] of ranges) {
    const l = intersect([[lo, hi]], [[0x61, 0x7a]]);
    for (const [a, b] of l) extra.push([a - 32, b - 32]);
    const u = intersect([[lo, hi]], [[0x41, 0x5a]]);
    for (const [a, b] of u) extra.push([a + 32, b + 32]);
  }
  return normalize([...ranges, ...extra]);
}

const r = (s: string): Ranges => {
  const out: Ranges = [];
  for (const part of s.split(',')) {
    const [a, b] = part.split('-');
    out.push([parseInt(a, 16), parseInt(b ?? a, 16)]);
  }
  return out;
};

/** Java's predefined classes (ASCII by default, unlike JavaScript's Unicode `\s`). */
export const PREDEFINED: Record<string, Ranges> = {
  d: r('30-39'),
  w: r('30-39,41-5a,5f,61-7a'),
  s: r('9-d,20'),
  h: r('20,9,a0,1680,180e,2000-200a,202f,205f,3000'),
  v: r('a-d,85,2028-2029'),
};

/** Java's POSIX character classes (`\p{Alpha}` …), US-ASCII only as in java.util.regex. */
export const POSIX: Record<string, Ranges> = {
  Lower: r('61-7a'),
  Upper: r('41-5a'),
  ASCII: r('0-7f'),
  Alpha: r('41-5a,61-7a'),
  Digit: r('30-39'),
  Alnum: r('30-39,41-5a,61-7a'),
  Punct: r('21-2f,3a-40,5b-60,7b-7e'),
  Graph: r('21-7e'),
  Print: r('20-7e'),
  Blank: r('20,9'),
  Cntrl: r('0-1f,7f'),
  XDigit: r('30-39,41-46,61-66'),
  Space: r('9-d,20'),
};

/** Java line terminators (without UNIX_LINES): \n \r \u0085 \u2028 \u2029. */
export const LINE_TERMINATORS: Ranges = r('a,d,85,2028-2029');

function escapeCodePoint(cp: number): string {
  if (cp >= 0x30 && cp <= 0x39) return String.fromCharCode(cp);
  if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return String.fromCharCode(cp);
  if (cp <= 0xff) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\u{${cp.toString(16)}}`;
}

/** A literal code point, valid in a `u`-flag pattern outside a class. */
export function literal(cp: number): string {
  return escapeCodePoint(cp);
}

/** The body of a JavaScript class (no brackets) for the ranges, valid with the `u` flag. */
export function classBody(ranges: Ranges): string {
  let out = '';
  for (const [lo, hi] of normalize(ranges)) {
    if (lo === hi) out += escapeCodePoint(lo);
    else if (hi === lo + 1) out += escapeCodePoint(lo) + escapeCodePoint(hi);
    else out += `${escapeCodePoint(lo)}-${escapeCodePoint(hi)}`;
  }
  return out;
}
