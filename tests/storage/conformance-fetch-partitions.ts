/**
 * The conformance of fetch partitions as a shared work queue: claims with leases, renewal, completion,
 * release, takeover of an expired lease with the late writer fenced off, and of a dead worker's at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { machineKey } from '../../core/storage/partition-claim.js';
import { type ConformanceHarness, collect, datum, eventually } from './conformance-harness.js';

export function fetchPartitionConformance(H: () => ConformanceHarness): void {
  test('fetch partitions: claim, renew, complete, release; an expired lease is taken over and the late writer is fenced off', async (t) => {
    const h = await H().make(t);
    const seg = await h.engine.createSegment(h.p('crawl/segments'));
    t.after(() => seg.close());
    for (let p = 0; p < 3; p++) {
      const w = await seg.openWriter('crawl_generate', p, { totalPartitions: 3 });
      await w.append([{ url: `http://h${p}/`, value: datum(p) }]);
      await w.finish();
      await w.close();
    }
    const q = seg.fetchPartitions();
    const long = { leaseMs: 60_000, maxAttempts: 2 };
    const a = (await q.claim('worker-a', long)).claim!;
    const b = (await q.claim('worker-b', long)).claim!;
    assert.deepEqual([a.partition, a.attempt, b.partition, b.attempt], [0, 1, 1, 1]);
    await q.renew(a, 60_000);
    const st = await q.status();
    assert.deepEqual(st.map((s) => s.state), ['running', 'running', 'pending']);
    assert.equal(st[0]!.worker, 'worker-a');
    assert.ok(st[0]!.leaseExpires! > 0);
    await q.release(b);
    assert.equal((await q.status())[1]!.state, 'pending');
    const fenced = await seg.openWriter('crawl_fetch', 0, { fence: a });
    await fenced.append([{ url: 'http://h0/', value: datum(10) }]);
    await fenced.finish();
    await q.complete(a);
    await fenced.close();
    assert.equal(await q.allSettled(), false);

    // partition 1 claimed with a lease that runs out, then taken over
    const late = (await q.claim('worker-late', { leaseMs: 1, maxAttempts: 2 })).claim!;
    assert.equal(late.partition, 1);
    const lateWriter = await seg.openWriter('crawl_fetch', 1, { fence: late });
    await lateWriter.append([{ url: 'http://h1/', value: datum(11) }]);
    await sleep(20);
    const takeover = await eventually(async () => {
      const c = (await q.claim('worker-new', long)).claim;
      if (!c || c.partition !== 1) throw Object.assign(new Error('not yet'), { code: 'RETRY', claim: c });
      return c;
    }, 'RETRY');
    assert.equal(takeover.attempt, 3, 'partition 1: claimed by b (released), late, and now the takeover');
    await assert.rejects(lateWriter.append([{ url: 'http://h1/late', value: datum(12) }]), { code: 'NUTCH_LEASE_LOST' });
    await assert.rejects(lateWriter.finish(), { code: 'NUTCH_LEASE_LOST' });
    await assert.rejects(q.renew(late, 1000), { code: 'NUTCH_LEASE_LOST' });
    await assert.rejects(q.complete(late), { code: 'NUTCH_LEASE_LOST' });
    await lateWriter.close();
    assert.deepEqual((await collect(seg.read('crawl_fetch', { partition: 1 }))).map((r) => r.url), ['http://h1/'], 'only the batch committed before the takeover');
    assert.deepEqual(await seg.storedAmong('crawl_fetch', 1, ['http://h1/', 'http://h1/late']), new Set(['http://h1/']));
    const w = await seg.openWriter('crawl_fetch', 1, { fence: takeover });
    await w.finish();
    await q.complete(takeover);

    // partition 2 fails after maxAttempts claims without finishing
    const c1 = (await q.claim('w1', { leaseMs: 1, maxAttempts: 2 })).claim!;
    assert.equal(c1.partition, 2);
    await sleep(20);
    const c2 = await eventually(async () => {
      const c = (await q.claim('w2', { leaseMs: 1, maxAttempts: 2 })).claim;
      if (!c) throw Object.assign(new Error('not yet'), { code: 'RETRY' });
      return c;
    }, 'RETRY');
    assert.equal(c2.attempt, 2);
    await sleep(20);
    const last = await eventually(async () => {
      const r = await q.claim('w3', { leaseMs: 1, maxAttempts: 2 });
      if (r.failed.length === 0) throw Object.assign(new Error('not yet'), { code: 'RETRY' });
      return r;
    }, 'RETRY');
    assert.equal(last.claim, null);
    assert.equal(last.failed[0]!.partition, 2);
    assert.match(last.failed[0]!.reason!, /fetcher\.partition\.max\.attempts=2/);
    assert.equal(await q.allSettled(), true);
    assert.deepEqual((await q.status()).map((s) => s.state), ['done', 'done', 'failed']);
    assert.equal(await seg.isComplete('crawl_fetch'), false, 'partition 2 never finished');
  });

  test('fetch partitions: a released partition is claimed with a new attempt, so the releasing worker stays fenced off; releases do not count against maxAttempts', async (t) => {
    const h = await H().make(t);
    const seg = await h.engine.createSegment(h.p('crawl/segments'));
    t.after(() => seg.close());
    const gen = await seg.openWriter('crawl_generate', 0, { totalPartitions: 1 });
    await gen.append([{ url: 'http://h0/a', value: datum(0) }, { url: 'http://h0/b', value: datum(1) }]);
    await gen.finish();
    await gen.close();
    const q = seg.fetchPartitions();
    const opts = { leaseMs: 60_000, maxAttempts: 2 };
    const first = (await q.claim('worker-a', opts)).claim!;
    const oldWriter = await seg.openWriter('crawl_fetch', 0, { fence: first });
    await oldWriter.append([{ url: 'http://h0/a', value: datum(10) }]);
    await q.release(first);
    const second = (await q.claim('worker-b', opts)).claim!;
    assert.equal(second.partition, 0);
    // the released worker's late calls are refused, before and after the new holder opens its writer
    await assert.rejects(oldWriter.append([{ url: 'http://h0/b', value: datum(11) }]), { code: 'NUTCH_LEASE_LOST' });
    assert.notEqual(second.attempt, first.attempt, 'a fencing token is never handed out twice');
    await assert.rejects(q.renew(first, 60_000), { code: 'NUTCH_LEASE_LOST' });
    await assert.rejects(q.complete(first), { code: 'NUTCH_LEASE_LOST' });
    await assert.rejects(q.release(first), { code: 'NUTCH_LEASE_LOST' });
    const newWriter = await seg.openWriter('crawl_fetch', 0, { fence: second });
    await assert.rejects(oldWriter.append([{ url: 'http://h0/b', value: datum(12) }]), { code: 'NUTCH_LEASE_LOST' });
    await assert.rejects(oldWriter.finish(), { code: 'NUTCH_LEASE_LOST' });
    await oldWriter.close();
    const st = (await q.status())[0]!;
    assert.deepEqual([st.state, st.worker, st.attempts], ['running', 'worker-b', second.attempt]);
    // two polite releases and a third claim: still within maxAttempts 2, since releases are not failures
    await newWriter.close();
    await q.release(second);
    const third = (await q.claim('worker-c', opts));
    assert.deepEqual(third.failed, []);
    assert.ok(third.claim && third.claim.attempt > second.attempt);
    const w = await seg.openWriter('crawl_fetch', 0, { fence: third.claim });
    await w.append([{ url: 'http://h0/b', value: datum(13) }]);
    await w.finish();
    await w.close();
    await q.complete(third.claim);
    assert.deepEqual((await collect(seg.read('crawl_fetch'))).map((r) => r.url), ['http://h0/a', 'http://h0/b'], 'the released worker\'s late batches were not stored');
  });

  test('fetch partitions: a lease that ran out while nobody else claimed the partition is kept by its worker (never claimed from it while held, renewed under the same attempt); claimed again by that worker it costs no attempt; another worker still fences it off', async (t) => {
    const h = await H().make(t);
    const seg = await h.engine.createSegment(h.p('crawl/segments'));
    t.after(() => seg.close());
    for (let p = 0; p < 2; p++) {
      const w = await seg.openWriter('crawl_generate', p, { totalPartitions: 2 });
      await w.append([{ url: `http://h${p}/`, value: datum(p) }]);
      await w.finish();
      await w.close();
    }
    const q = seg.fetchPartitions();
    const short = { leaseMs: 1, maxAttempts: 1 };
    const a = (await q.claim('worker-a', short)).claim!;
    assert.deepEqual([a.partition, a.attempt], [0, 1]);
    await sleep(20); // a's lease runs out before its renewal comes (a starved machine); nobody else asks
    // worker-a, holding partition 0, asks for more work: partition 1, not its own 0 again (that would supersede
    // its own claim and, with maxAttempts 1, fail the partition)
    const more = await q.claim('worker-a', { ...short, held: [0] });
    assert.deepEqual(more.failed, []);
    assert.deepEqual([more.claim?.partition, more.claim?.attempt], [1, 1]);
    const b = more.claim!;
    await sleep(20);
    assert.deepEqual(await q.claim('worker-a', { ...short, held: [0, 1] }), { claim: null, failed: [] }, 'nothing claimable: both are held by the asking worker');
    // the late renewal is granted under the same attempt (no newer one exists), and a's writes commit
    await q.renew(a, 60_000);
    const w0 = await seg.openWriter('crawl_fetch', 0, { fence: a });
    await w0.append([{ url: 'http://h0/', value: datum(10) }]);
    await w0.finish();
    await w0.close();
    await q.complete(a);
    assert.deepEqual((await q.status()).map((s) => [s.state, s.attempts]), [['done', 1], ['running', 1]]);

    // partition 1: worker-a stopped holding it (a write of it stood idle too long) and claims it again once its
    // lease ran out: a new attempt, so the dropped claim stays fenced off, yet not counted against maxAttempts 1
    const dropped = await seg.openWriter('crawl_fetch', 1, { fence: b });
    const again = await q.claim('worker-a', short);
    assert.deepEqual(again.failed, []);
    assert.deepEqual([again.claim?.partition, again.claim?.attempt], [1, 2]);
    await assert.rejects(dropped.append([{ url: 'http://h1/dropped', value: datum(11) }]), { code: 'NUTCH_LEASE_LOST' });
    await assert.rejects(q.renew(b, 60_000), { code: 'NUTCH_LEASE_LOST' });
    await dropped.close();
    // another worker's takeover counts: a second counted claim, allowed by maxAttempts 2; worker-a is fenced off
    await sleep(20);
    const takeover = await q.claim('worker-b', { leaseMs: 60_000, maxAttempts: 2 });
    assert.deepEqual(takeover.failed, [], 'worker-a\'s own re-claim did not count: this is the second counted claim');
    assert.deepEqual([takeover.claim?.partition, takeover.claim?.attempt], [1, 3]);
    await assert.rejects(q.renew(again.claim!, 60_000), { code: 'NUTCH_LEASE_LOST' });
    const w1 = await seg.openWriter('crawl_fetch', 1, { fence: takeover.claim! });
    await w1.append([{ url: 'http://h1/', value: datum(12) }]);
    await w1.finish();
    await w1.close();
    await q.complete(takeover.claim!);
    assert.deepEqual((await collect(seg.read('crawl_fetch'))).map((r) => r.url), ['http://h0/', 'http://h1/']);
    assert.equal(await q.allSettled(), true);
  });

  test('fetch partitions: a claim whose worker process is gone from this host is taken over at once, not after its lease; a running or remote worker keeps its claim', async (t) => {
    const h = await H().make(t);
    const seg = await h.engine.createSegment(h.p('crawl/segments'));
    t.after(() => seg.close());
    for (let p = 0; p < 4; p++) {
      const w = await seg.openWriter('crawl_generate', p, { totalPartitions: 4 });
      await w.append([{ url: `http://h${p}/`, value: datum(p) }]);
      await w.finish();
      await w.close();
    }
    // a process of this host that has exited (as a killed fetch's has)
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const q = seg.fetchPartitions();
    const long = { leaseMs: 60_000, maxAttempts: 4 };
    const here = os.hostname();
    const remote = (await q.claim(`another-host.example:${dead}:${machineKey()}.far`, long)).claim!;
    // the same host name on another machine (or in another pid namespace): its pid says nothing here
    const namesake = (await q.claim(`${here}:${dead}:0000ffff.twin`, long)).claim!;
    const running = (await q.claim(`${here}:${process.ppid}:${machineKey()}.alive`, long)).claim!;
    const killed = (await q.claim(`${here}:${dead}:${machineKey()}.gone`, long)).claim!;
    assert.deepEqual([remote.partition, namesake.partition, running.partition, killed.partition], [0, 1, 2, 3]);
    const next = (await q.claim('worker-resume', long)).claim;
    assert.ok(next, 'the dead worker\'s partition is claimable before its 60 s lease ends');
    assert.deepEqual([next.partition, next.attempt], [3, 2]);
    assert.equal((await q.claim('worker-resume', long)).claim, null, 'a remote worker, a namesake host\'s and a running one keep their claims until the lease ends');
    await assert.rejects(q.renew(killed, 60_000), { code: 'NUTCH_LEASE_LOST' });
  });

  test('fetch partitions: a partition whose crawl_fetch was finished by a plain fetch counts as done', async (t) => {
    const h = await H().make(t);
    const seg = await h.engine.createSegment(h.p('crawl/segments'));
    t.after(() => seg.close());
    for (let p = 0; p < 2; p++) {
      const w = await seg.openWriter('crawl_generate', p, { totalPartitions: 2 });
      await w.finish();
      await w.close();
    }
    const f = await seg.openWriter('crawl_fetch', 0);
    await f.finish();
    await f.close();
    const q = (await h.engine.openSegment(seg.path)).fetchPartitions();
    assert.deepEqual((await q.status()).map((s) => s.state), ['done', 'pending']);
    const c = (await q.claim(`${os.hostname()}:${process.pid}:x`, { leaseMs: 60_000, maxAttempts: 4 })).claim!;
    assert.equal(c.partition, 1);
    assert.equal((await q.claim('other', { leaseMs: 60_000, maxAttempts: 4 })).claim, null);
  });
}
