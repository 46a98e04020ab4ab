import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CandidateRuns, type Candidate } from '../../core/crawl/generate/candidate-runs.js';
import { TopCandidates } from '../../core/crawl/generate/top-candidates.js';
import { SegmentAllocation } from '../../core/crawl/generate/segment-allocation.js';

/** A seeded PRNG (mulberry32), so a failure replays. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function select(source: { sorted(): AsyncGenerator<Candidate> }, topN: number, maxCount: number, maxNumSegments: number): Promise<{ segments: string[][]; overflow: number }> {
  let overflow = 0;
  const alloc = new SegmentAllocation({ topN, maxCount, maxNumSegments, counters: {}, onHostOverflow: () => overflow++ });
  for await (const c of source.sorted()) {
    if (!alloc.open) break;
    alloc.offer(c);
  }
  return { segments: alloc.segments, overflow };
}

for (const [topN, maxCount, maxNumSegments] of [[50, 3, 1], [50, 0, 1], [40, 0, 3], [7, 2, 1], [500, 5, 1]] as const) {
  test(`bounded candidates select what every candidate sorted selects (topN ${topN}, generate.max.count ${maxCount}, ${maxNumSegments} segment(s))`, async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const rnd = prng(seed * 7919 + topN);
      const keep = topN * maxNumSegments;
      const perHost = maxCount * maxNumSegments;
      const runs = new CandidateRuns(keep, perHost);
      const top = new TopCandidates(keep, perHost);
      let maxKept = 0;
      for (let i = 0; i < 3000; i++) {
        // few distinct sort values: ties are ordered by URL, URLs arrive in no order
        const c: Candidate = { url: `http://h${Math.floor(rnd() * 20)}.example/${Math.floor(rnd() * 1e9).toString(36)}-${i}`, sort: Math.floor(rnd() * 8) / 2, host: 0 };
        c.host = Number(/h(\d+)/.exec(c.url)![1]);
        runs.add(c);
        if (top.admits(c.sort, c.url)) top.add(c);
        maxKept = Math.max(maxKept, top.size);
      }
      assert.ok(maxKept <= keep, `never more than topN x maxNumSegments kept (${maxKept})`);
      const want = await select(runs, topN, maxCount, maxNumSegments);
      const got = await select(top, topN, maxCount, maxNumSegments);
      assert.deepEqual(got.segments, want.segments, `seed ${seed}`);
    }
  });
}

test('bounded candidates: a host over its cap pushes its worst out (counted), and admits() refuses what cannot get in', async () => {
  const overflowed: string[] = [];
  const top = new TopCandidates(3, 2, (c) => overflowed.push(c.url));
  top.add({ url: 'http://a/1', sort: 1, host: 0 });
  top.add({ url: 'http://a/2', sort: 2, host: 0 });
  top.add({ url: 'http://a/3', sort: 3, host: 0 });
  assert.deepEqual(overflowed, ['http://a/1']);
  top.add({ url: 'http://a/0', sort: 0.5, host: 0 });
  assert.deepEqual(overflowed, ['http://a/1', 'http://a/0']);
  top.add({ url: 'http://b/1', sort: 1, host: 1 });
  assert.equal(top.size, 3);
  assert.equal(top.admits(1, 'http://c/'), false, 'ties go to the earlier URL');
  assert.equal(top.admits(1, 'http://a/'), true);
  top.add({ url: 'http://c/1', sort: 5, host: 2 });
  const order: string[] = [];
  for await (const c of top.sorted()) order.push(c.url);
  assert.deepEqual(order, ['http://c/1', 'http://a/3', 'http://a/2']);
});
