/**
 * How `nutch search` prints a hit for people: the index's highlight markers (indexer-sqlite's default
 * `<b>…</b>`) become bold on a terminal and disappear elsewhere (a pipe, a file); scores keep three
 * significant digits, so the tiny BM25 scores of terms found in most pages (FTS5 floors their IDF at
 * 1e-6) read as 2.41e-6 rather than 0.0000. `-json` prints the raw values.
 */
const HIGHLIGHT = /<b>([\s\S]*?)<\/b>/g;

export function renderSnippet(snippet: string, tty: boolean): string {
  const flat = snippet.replace(/\s+/g, ' ').trim();
  return flat.replace(HIGHLIGHT, (_m, text: string) => (tty ? `\x1b[1m${text}\x1b[22m` : text));
}

export function formatScore(score: number): string {
  if (!Number.isFinite(score)) return String(score);
  if (score === 0) return '0';
  return Math.abs(score) >= 0.001 ? String(Number(score.toPrecision(3))) : score.toExponential(2);
}
