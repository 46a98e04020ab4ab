/**
 * Field-aware re-ranking of the embedded index's candidates. FTS5's BM25 (weighted columns) finds
 * and orders the candidates; this pass then rewards where the query's words sit, which BM25 does
 * not see: in the title (all of them, as a phrase, the title starting with them, the title being
 * little else), in the URL path (a path word may be several query words run together:
 * `sql-createindex.html` for "create index"), in headings and anchors, and close together in the
 * body (the query as a phrase, or its words within a few words of each other). Each feature is a fraction in [0, 1]; the
 * score is BM25 scaled to the best candidate plus the weighted features, so a page that BM25 ranks
 * far lower can only win on strong field evidence. Weights are the `rank.*` parameters of
 * indexer-sqlite (docs/indexing.md).
 */

export interface RankWeights {
  bm25: number;
  title: number;
  titlePhrase: number;
  titleExact: number;
  path: number;
  headings: number;
  anchor: number;
  proximity: number;
}

export const DEFAULT_RANK_WEIGHTS: RankWeights = {
  bm25: 1,
  title: 1,
  titlePhrase: 0.6,
  titleExact: 0.6,
  path: 0.8,
  headings: 0.4,
  anchor: 0.4,
  proximity: 0.5,
};

export interface Candidate {
  url: string;
  title: string;
  headings: string;
  anchor: string;
  /**
   * How close together the query's words stand in the body, 0 to 1 (1 = as a phrase). indexer-sqlite
   * asks FTS5's position lists (phrase and NEAR queries) rather than reading page texts;
   * `proximity()` computes it from a text.
   */
  proximity: number;
  /** BM25 as FTS5 gives it: lower (more negative) is better. */
  bm25: number;
}

/** Lower-cased word tokens, split as FTS5's unicode61 splits (letters and digits; `_` separates). */
export function tokens(text: string): string[] {
  return text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Body text looked at for proximity: enough for any page's opening, bounded for huge pages. */
const PROXIMITY_CHARS = 200_000;

function coverage(terms: readonly string[], field: ReadonlySet<string>): number {
  let n = 0;
  for (const t of terms) if (field.has(t)) n++;
  return terms.length ? n / terms.length : 0;
}

/** Index of the first run of `terms` as consecutive tokens of `toks`, or -1. */
function phraseAt(toks: readonly string[], terms: readonly string[]): number {
  outer: for (let i = 0; i + terms.length <= toks.length; i++) {
    for (let j = 0; j < terms.length; j++) if (toks[i + j] !== terms[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * Share of the query's words found in the URL path, a path word also matching two or more
 * consecutive query words written together (`createindex`, `pgdump`, `add_executable`).
 */
function pathCoverage(terms: readonly string[], url: string): number {
  let path = url;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    /* keep the raw URL */
  }
  const words = new Set(tokens(path));
  const hit = terms.map((t) => words.has(t));
  for (let i = 0; i < terms.length; i++) {
    let joined = terms[i]!;
    for (let j = i + 1; j < terms.length; j++) {
      joined += terms[j];
      if (words.has(joined)) for (let k = i; k <= j; k++) hit[k] = true;
    }
  }
  return terms.length ? hit.filter(Boolean).length / terms.length : 0;
}

/** |terms| / the smallest window of body tokens that holds every distinct query word (1 = adjacent). */
export function proximity(terms: readonly string[], content: string): number {
  const want = [...new Set(terms)];
  if (want.length < 2) return 0;
  const index = new Map(want.map((t, i) => [t, i]));
  const toks = tokens(content.length > PROXIMITY_CHARS ? content.slice(0, PROXIMITY_CHARS) : content);
  const last = new Array<number>(want.length).fill(-1);
  let seen = 0;
  let best = Infinity;
  for (let p = 0; p < toks.length; p++) {
    const i = index.get(toks[p]!);
    if (i === undefined) continue;
    if (last[i] === -1) seen++;
    last[i] = p;
    if (seen === want.length) best = Math.min(best, p - Math.min(...last) + 1);
  }
  return best === Infinity ? 0 : want.length / best;
}

/** The features of one candidate, each in [0, 1]. */
export function features(terms: readonly string[], c: Candidate): Omit<RankWeights, 'bm25'> {
  const titleToks = tokens(c.title);
  const titleSet = new Set(titleToks);
  const at = phraseAt(titleToks, terms);
  const distinctTitle = titleSet.size;
  const inTitle = terms.filter((t) => titleSet.has(t)).length;
  return {
    title: coverage(terms, titleSet),
    // the phrase in the title, more when the title starts with it (a page about exactly that)
    titlePhrase: at < 0 ? 0 : at === 0 ? 1 : 0.5,
    // how much of the title the query is: "CREATE INDEX" for "create index", not a long title mentioning both
    titleExact: distinctTitle ? Math.min(1, inTitle / distinctTitle) : 0,
    path: pathCoverage(terms, c.url),
    headings: coverage(terms, new Set(tokens(c.headings))),
    anchor: coverage(terms, new Set(tokens(c.anchor))),
    proximity: Math.max(0, Math.min(1, c.proximity)),
  };
}

/** Candidates in their new order, each with its combined score (higher is better). */
export function rerank<C extends Candidate>(query: string, candidates: readonly C[], w: RankWeights = DEFAULT_RANK_WEIGHTS): { candidate: C; score: number }[] {
  const terms = tokens(query);
  const best = Math.max(1e-9, ...candidates.map((c) => -c.bm25));
  return candidates
    .map((candidate, i) => {
      const f = features(terms, candidate);
      let score = w.bm25 * (-candidate.bm25 / best);
      for (const k of Object.keys(f) as (keyof typeof f)[]) score += w[k] * f[k];
      return { candidate, score, i };
    })
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ candidate, score }) => ({ candidate, score }));
}
