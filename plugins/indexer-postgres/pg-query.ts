/**
 * Builds a to_tsquery() expression from a user query, never a syntax error: words become quoted
 * lexemes ANDed together, "double-quoted text" a phrase (<->), a trailing * a prefix (:*); every
 * other tsquery operator character is treated as text. Null when nothing searchable is left.
 */
function words(text: string): string[] {
  return text.split(/[^\p{L}\p{N}\p{M}_]+/u).filter((w) => /[\p{L}\p{N}]/u.test(w));
}

function lexeme(w: string): string {
  return `'${w.replace(/'/g, "''").replace(/\\/g, '\\\\')}'`;
}

export function toTsQuery(query: string): string | null {
  const balanced = (query.match(/"/g)?.length ?? 0) % 2 === 0;
  const source = balanced ? query : query.replace(/"(?=[^"]*$)/, ' ');
  const parts: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(source))) {
    if (m[1] !== undefined) {
      const ws = words(m[1]);
      if (ws.length) parts.push(`(${ws.map(lexeme).join(' <-> ')})`);
      continue;
    }
    const prefix = m[2]!.endsWith('*');
    const ws = words(m[2]!);
    ws.forEach((w, i) => parts.push(lexeme(w) + (prefix && i === ws.length - 1 ? ':*' : '')));
  }
  return parts.length ? parts.join(' & ') : null;
}
