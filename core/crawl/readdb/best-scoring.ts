/**
 * readdb -topN's selection: the N best-scoring URLs with score >= min, best first (ties by URL), in
 * one pass over the CrawlDb with a bounded min-heap of N entries, so memory stays O(N).
 */
import { NutchError } from '../../errors.js';
import type { CrawlDbReader } from '../../storage/interfaces.js';
import { TimeSlice } from '../../storage/yield.js';

export interface ScoredUrl {
  url: string;
  score: number;
}

export async function bestScoring(db: CrawlDbReader, n: number, min = 0, o: { batchSize?: number; signal?: AbortSignal } = {}): Promise<ScoredUrl[]> {
  if (!Number.isInteger(n) || n < 1) throw new NutchError('NUTCH_USAGE', `topN needs a positive integer, got ${n}.`);
  const heap: ScoredUrl[] = [];
  const worse = (a: ScoredUrl, b: ScoredUrl) => a.score < b.score || (a.score === b.score && a.url > b.url);
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[p]!)) return;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  const slice = new TimeSlice();
  for await (const { url, value } of db.scan({ batchSize: o.batchSize })) {
    if (o.signal?.aborted) break;
    await slice.tick();
    if (!(value.score >= min)) continue;
    const e = { score: value.score, url };
    if (heap.length < n) { heap.push(e); up(heap.length - 1); }
    else if (worse(heap[0]!, e)) { heap[0] = e; down(0); }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}
