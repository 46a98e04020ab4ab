/**
 * readdb -topN's selection: the N best-scoring URLs with score >= min, best first (ties by URL), in
 * one pass over the CrawlDb with a bounded min-heap of N entries, so memory stays O(N).
 */
import { NutchError } from '../../errors.js';
import type { CrawlDbReader } from '../../storage/interfaces.js';
import { TimeSlice } from '../../storage/yield.js';
import { WorstFirstHeap } from '../worst-first-heap.js';

export interface ScoredUrl {
  url: string;
  score: number;
}

export async function bestScoring(db: CrawlDbReader, n: number, min = 0, o: { batchSize?: number; signal?: AbortSignal } = {}): Promise<ScoredUrl[]> {
  if (!Number.isInteger(n) || n < 1) throw new NutchError('NUTCH_USAGE', `topN needs a positive integer, got ${n}.`);
  const worse = (a: ScoredUrl, b: ScoredUrl) => a.score < b.score || (a.score === b.score && a.url > b.url);
  const heap = new WorstFirstHeap<ScoredUrl>(worse);
  const slice = new TimeSlice();
  for await (const { url, value } of db.scan({ batchSize: o.batchSize })) {
    if (o.signal?.aborted) break;
    await slice.tick();
    if (!(value.score >= min)) continue;
    const e = { score: value.score, url };
    if (heap.size < n) heap.push(e);
    else if (worse(heap.peek()!, e)) heap.replaceTop(e);
  }
  return heap.items.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}
