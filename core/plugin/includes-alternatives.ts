/**
 * Splits a plugin.includes regex into its alternatives, expanding groups:
 * `protocol-http|parse-(html|tika)` -> protocol-http, parse-html, parse-tika. Each alternative stays a
 * regex source (`urlfilter-.*` is one alternative), so it can be tested against the plugin ids to
 * find the ones that match nothing. A group followed by a quantifier, a lookaround or a character
 * class is kept as it is; the expansion stops growing at MAX_ALTERNATIVES (the rest stay unexpanded).
 */
const MAX_ALTERNATIVES = 256;

type Part = string | string[];

export function includesAlternatives(pattern: string): string[] {
  return expand(pattern);
}

function expand(source: string): string[] {
  const out: string[] = [];
  for (const branch of splitTopLevel(source)) {
    let combos = [''];
    for (const part of parts(branch)) {
      const options = typeof part === 'string' ? [part] : part;
      if (combos.length * options.length > MAX_ALTERNATIVES) {
        combos = combos.map((c) => c + (typeof part === 'string' ? part : `(?:${part.join('|')})`));
        continue;
      }
      combos = combos.flatMap((c) => options.map((o) => c + o));
    }
    out.push(...combos);
  }
  return out;
}

/** Index just past the `)` closing the group opened at `open`, or -1. Escapes and classes skipped. */
function groupEnd(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '[') i = classEnd(s, i) - 1;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return -1;
}

function classEnd(s: string, open: number): number {
  for (let i = open + 1; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === ']' && i > open + 1) return i + 1;
  }
  return s.length;
}

function splitTopLevel(s: string): string[] {
  const branches: string[] = [];
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '[') i = classEnd(s, i) - 1;
    else if (c === '(') {
      const end = groupEnd(s, i);
      if (end < 0) break;
      i = end - 1;
    } else if (c === '|') {
      branches.push(s.slice(start, i));
      start = i + 1;
    }
  }
  branches.push(s.slice(start));
  return branches;
}

/** A branch as literal runs and expandable groups. */
function parts(branch: string): Part[] {
  const out: Part[] = [];
  let text = '';
  for (let i = 0; i < branch.length; i++) {
    const c = branch[i]!;
    if (c === '\\') {
      text += branch.slice(i, i + 2);
      i++;
    } else if (c === '[') {
      const end = classEnd(branch, i);
      text += branch.slice(i, end);
      i = end - 1;
    } else if (c === '(') {
      const end = groupEnd(branch, i);
      if (end < 0) {
        text += branch.slice(i);
        break;
      }
      const quantified = /^[*+?{]/.test(branch.slice(end, end + 1));
      const inner = branch.slice(i + 1, end - 1);
      const special = inner.startsWith('?') && !inner.startsWith('?:');
      if (quantified || special) {
        text += branch.slice(i, end);
      } else {
        if (text) out.push(text);
        text = '';
        out.push(expand(inner.startsWith('?:') ? inner.slice(2) : inner));
      }
      i = end - 1;
    } else {
      text += c;
    }
  }
  if (text) out.push(text);
  return out;
}

/** True when an alternative is a plain plugin id (no regex syntax left in it). */
export function isLiteralId(alternative: string): boolean {
  return /^[\w.@/-]+$/.test(alternative) && !alternative.includes('.*');
}
