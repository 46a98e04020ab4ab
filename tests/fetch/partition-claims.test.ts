/**
 * A lone fetch worker whose lease ran out before its renewal came (its event loop stood still, as on a
 * starved machine or in a SIGSTOP) while nobody else asked for its partitions: it keeps them. Asking
 * for more work must not claim its own partitions from itself — that superseded its own claim (its
 * batches refused, its queue dropped) and used an attempt each time, until the partition failed after
 * fetcher.partition.max.attempts (a lone `nutch fetch` exited 3 that way with a 2 s lease).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryLogger } from '../../core/log.js';
import { PartitionClaims } from '../../core/crawl/fetch/partition-claims.js';
import type { PartitionClaim, PartitionStatus } from '../../core/storage/interfaces.js';
import { CrawlStatus, createCrawlDatum } from '../../core/model/crawl-datum.js';
import { fetchContext, generateSegment } from './fetch-helpers.js';

/** Stops this thread's event loop for `ms`, as a SIGSTOP or a starved process would: no timer, no renewal runs. */
function freeze(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

test('partition claims: a worker whose renewal came late, with nobody else asking, keeps its partitions under the same attempt and claims none from itself', async (t) => {
  const ctx = fetchContext(t);
  const segPath = await generateSegment(ctx, [['http://127.0.0.1:1/a'], ['http://127.0.0.1:2/b']]);
  const segment = await ctx.storage.openSegment(segPath);
  t.after(() => segment.close());
  const failed: PartitionStatus[] = [];
  const lost: PartitionClaim[] = [];
  const log = createMemoryLogger();
  const leaseMs = 300;
  // maxAttempts 1: one claim of a partition from itself would fail it
  const claims = new PartitionClaims(segment.fetchPartitions(), 'lone-worker', { leaseMs, maxAttempts: 1, pollMs: 10 }, log,
    async (f) => void failed.push(f), (c) => void lost.push(c));
  t.after(() => claims.close());
  const a = (await claims.next())!;
  const b = (await claims.next())!;
  assert.deepEqual([a.partition, a.attempt, b.partition, b.attempt], [0, 1, 1, 1]);

  freeze(leaseMs * 2); // both leases run out, by the database's clock too, before any renewal
  // the feeder asks for more work at once (its poll came first): nothing is claimable for it
  const next = claims.next();
  const stopper = setTimeout(() => claims.stop(), 200);
  assert.equal(await next, null);
  clearTimeout(stopper);
  assert.deepEqual(failed, [], 'no partition failed');
  assert.deepEqual(lost, [], 'no claim was lost');
  const status = await segment.fetchPartitions().status();
  assert.deepEqual(status.map((s) => [s.state, s.worker, s.attempts]), [['running', 'lone-worker', 1], ['running', 'lone-worker', 1]]);

  // the claims are still the current ones: confirmed by a renewal, and a fenced batch commits
  assert.equal(await claims.stillHeld(a), true);
  const w = await segment.openWriter('crawl_fetch', 0, { fence: a });
  await w.append([{ url: 'http://127.0.0.1:1/a', value: createCrawlDatum({ status: CrawlStatus.STATUS_FETCH_SUCCESS }) }]);
  await w.finish();
  await w.close();
  await claims.complete(a);
  assert.deepEqual((await segment.fetchPartitions().status()).map((s) => [s.state, s.attempts]), [['done', 1], ['running', 1]]);
  assert.deepEqual(log.records.filter((r) => r.level === 'warn').map((r) => r.msg), []);
});
