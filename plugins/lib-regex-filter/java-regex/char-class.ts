/**
 * Java character classes: `[…]` with ranges, escapes, `\Q…\E`, nested classes (union) and `&&`
 * (intersection), computed as one set of code-point ranges and emitted as a JavaScript class.
 * Only `\p{…}` properties JavaScript must keep as `\p{…}` stay symbolic (union only).
 */
import { classBody, complement, intersect, normalize, type Ranges } from './char-set.js';
import type { PatternCursor } from './pattern-cursor.js';

/** A class after its `[`, Java-style: nested classes are unions, `&&` intersects. */
export function parseCharClass(cur: PatternCursor): string {
  const start = cur.pos - 1;
  const result = classSet(cur, start);
  if (result.js.length) {
    if (result.negated) {
      if (result.ranges.length === 0 && result.js.length === 1) return `[^${result.js[0]}]`;
      return `[^${classBody(cur.caseFold(result.ranges))}${result.js.join('')}]`;
    }
    return `[${classBody(cur.caseFold(result.ranges))}${result.js.join('')}]`;
  }
  let ranges = cur.caseFold(result.ranges);
  if (result.negated) ranges = complement(ranges);
  return ranges.length ? `[${classBody(ranges)}]` : '[]';
}

/** Parses up to the matching `]`; returns ranges plus JavaScript `\p{…}` items (union only). */
function classSet(cur: PatternCursor, start: number): { ranges: Ranges; js: string[]; negated: boolean } {
  let negated = false;
  if (cur.src[cur.pos] === '^') { negated = true; cur.pos++; }
  let ranges: Ranges = [];
  const js: string[] = [];
  let firstItem = true;
  let acc: Ranges | null = null;
  for (;;) {
    if (cur.pos >= cur.src.length) cur.error('Unclosed character class', start);
    const c = cur.src[cur.pos];
    if (c === ']' && !firstItem) { cur.pos++; break; }
    firstItem = false;
    if (cur.flags.x && /[ \t\n\r\f\x0b]/.test(c)) { cur.pos++; continue; }
    if (c === '[') {
      cur.pos++;
      const nested = classSet(cur, cur.pos - 1);
      if (nested.negated && nested.js.length) cur.error('a negated nested class with \\p{…} has no exact JavaScript form', cur.pos);
      ranges.push(...(nested.negated ? complement(nested.ranges) : nested.ranges));
      js.push(...nested.js);
      continue;
    }
    if (c === '&' && cur.src[cur.pos + 1] === '&') {
      cur.pos += 2;
      if (js.length) cur.error('class intersection with \\p{…} has no exact JavaScript form', cur.pos);
      acc = acc ? intersect(acc, ranges) : ranges;
      ranges = [];
      continue;
    }
    const lo = classAtom(cur, ranges, js);
    if (lo === null) continue;
    if (cur.src[cur.pos] === '-' && cur.src[cur.pos + 1] !== ']' && cur.src[cur.pos + 1] !== '[' && cur.pos + 1 < cur.src.length) {
      const dashAt = cur.pos;
      cur.pos++;
      const hi = classAtom(cur, ranges, js);
      if (hi === null) cur.error('Illegal character range', dashAt);
      if (hi < lo) cur.error('Illegal character range', dashAt);
      ranges.push([lo, hi]);
    } else {
      ranges.push([lo, lo]);
    }
  }
  if (acc) {
    if (js.length) cur.error('class intersection with \\p{…} has no exact JavaScript form', cur.pos);
    if (ranges.length) ranges = intersect(acc, ranges);
    else ranges = acc;
  }
  return { ranges: normalize(ranges), js, negated };
}

/** One class member: a code point (returned) or a class escape (added to ranges/js, null returned). */
function classAtom(cur: PatternCursor, ranges: Ranges, js: string[]): number | null {
  const c = cur.src[cur.pos];
  if (c === '\\') {
    const n = cur.src[cur.pos + 1];
    if (n === 'Q') {
      const end = cur.src.indexOf('\\E', cur.pos + 2);
      const text = cur.src.slice(cur.pos + 2, end === -1 ? undefined : end);
      cur.pos = end === -1 ? cur.src.length : end + 2;
      for (const ch of text) ranges.push([ch.codePointAt(0)!, ch.codePointAt(0)!]);
      return null;
    }
    if (n === 'b' || n === 'B' || n === 'A' || n === 'z' || n === 'Z' || n === 'R' || n === 'X' || n === 'G' || n === 'k') {
      cur.error(`Illegal/unsupported escape sequence \\${n} in a character class`, cur.pos);
    }
    const set = cur.classEscape();
    if (set) {
      ranges.push(...set.ranges);
      if (set.js) js.push(set.js);
      return null;
    }
    return cur.charEscape();
  }
  const cp = cur.src.codePointAt(cur.pos)!;
  cur.pos += cp > 0xffff ? 2 : 1;
  return cp;
}
