/**
 * Turns a user query into a safe FTS5 MATCH expression: words become quoted terms (implicit AND),
 * "double-quoted text" a phrase, a trailing * a prefix query. Every other FTS5 operator character
 * (parentheses, ^, :, +, -, unbalanced quotes) is treated as text, so no query can be a syntax error.
 * Returns null when nothing searchable is left. `OR` joins the parts with OR instead (any may match).
 */
const WORD = /[\p{L}\p{N}]/u;

function quote(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** Splits into FTS5 tokens roughly as unicode61 does: runs of letters, digits and marks. */
function words(text: string): string[] {
  return text.split(/[^\p{L}\p{N}\p{M}_]+/u).filter((w) => WORD.test(w));
}

export function toFtsQuery(query: string, join: 'AND' | 'OR' = 'AND'): string | null {
  const parts: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  const text = query.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  let m: RegExpExecArray | null;
  // An odd number of quotes: the last one is plain text, not a phrase opener.
  const balanced = (text.match(/"/g)?.length ?? 0) % 2 === 0;
  const source = balanced ? text : text.replace(/"(?=[^"]*$)/, ' ');
  while ((m = re.exec(source))) {
    if (m[1] !== undefined) {
      const phrase = words(m[1]);
      if (phrase.length) parts.push(quote(phrase.join(' ')));
      continue;
    }
    const token = m[2]!;
    const prefix = token.endsWith('*');
    const ws = words(token);
    ws.forEach((w, i) => parts.push(quote(w) + (prefix && i === ws.length - 1 ? '*' : '')));
  }
  return parts.length ? parts.join(join === 'OR' ? ' OR ' : ' ') : null;
}
