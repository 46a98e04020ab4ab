/**
 * Four `nutch fetch` processes share one segment of 8 partitions (DESIGN §5.1): one is SIGKILLed after
 * its first committed batch, one is SIGSTOPped for longer than its lease and then continued. The
 * partitions of both are claimed again and resumed; the frozen worker's late writes are refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { startTestWeb } from '../web/test-web.js';
import { tempDir, projectRoot } from '../helpers/temp-dir.js';
import { fetchContext, generateSegment } from '../fetch/fetch-helpers.js';
import type { PartitionStatus } from '../../core/storage/interfaces.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Worker {
  child: ChildProcess;
  stderr: string;
  exit: Promise<number | null>;
}

function startWorker(cwd: string, segment: string): Worker {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(projectRoot, 'sdk', 'cli', 'main.ts'), 'fetch', segment, '-threads', '4'], {
    cwd, env: { PATH: process.env.PATH, NUTCH_CONF_DIR: cwd, NUTCH_LOG_LEVEL: 'info' }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  const w: Worker = { child, stderr: '', exit: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (w.stderr += c));
  return w;
}

test('workers: 4 fetch processes share 8 partitions; a killed and a frozen worker lose nothing and store nothing twice', { timeout: 400_000 }, async (t) => {
  const web = await startTestWeb({ hosts: 16, pagesPerHost: 10, linksPerPage: 2, latencyMs: 40 });
  t.after(() => web.close());
  const cwd = tempDir(t);
  const conf = {
    'http.agent.name': 'worker-test',
    'fetcher.server.delay': 0.05,
    'storage.batch.size': 4,
    'fetcher.partition.lease': 2,
    'fetcher.partition.poll': 100,
    'plugin.includes': 'protocol-http|urlnormalizer-pass',
  };
  writeFileSync(join(cwd, 'nutch-site.json'), JSON.stringify(conf));
  const ctx = Object.assign(fetchContext(t, Object.fromEntries(Object.entries(conf).map(([k, v]) => [k, String(v)]))), { crawlDir: join(cwd, 'crawl') });
  // 8 partitions of whole hosts, as generate -numFetchers 8 makes them
  const byHost = web.seeds.map((_, h) => web.allUrls().filter((u) => new URL(u).host === web.hosts[h]));
  const partitions = Array.from({ length: 8 }, (_, p) => [...byHost[2 * p]!, ...byHost[2 * p + 1]!]);
  const segPath = await generateSegment(ctx, partitions);
  const segment = await ctx.storage.openSegment(segPath);
  t.after(() => segment.close());
  const queue = segment.fetchPartitions();
  const pidOf = (s: PartitionStatus) => Number(s.worker?.split(':')[1]);

  const workers = Array.from({ length: 4 }, () => startWorker(cwd, segPath));
  const [killed, frozen] = workers as [Worker, Worker];
  /** A partition the worker holds with at least one committed batch in crawl_fetch. */
  const committedClaim = async (w: Worker): Promise<PartitionStatus | null> => {
    for (const s of await queue.status()) {
      if (s.state !== 'running' || pidOf(s) !== w.child.pid) continue;
      let n = 0;
      for await (const _ of segment.read('crawl_fetch', { partition: s.partition })) n++;
      if (n > 0) return s;
    }
    return null;
  };
  /** Every partition the two workers held when they were stopped (one being fed, one draining). */
  const heldByStopped: number[] = [];
  const heldBy = async (w: Worker) => (await queue.status()).filter((s) => s.state === 'running' && pidOf(s) === w.child.pid).map((s) => s.partition);
  let killedClaim: PartitionStatus | null = null;
  let frozenClaim: PartitionStatus | null = null;
  // the children may take a while to start on a loaded machine: wait for their first commits, not a fixed time
  for (const deadline = Date.now() + 240_000; Date.now() < deadline && !(killedClaim && frozenClaim);) {
    if (!killedClaim && (killedClaim = await committedClaim(killed))) {
      killed.child.kill('SIGKILL');
      heldByStopped.push(...await heldBy(killed));
    }
    if (!frozenClaim && (frozenClaim = await committedClaim(frozen))) {
      frozen.child.kill('SIGSTOP');
      heldByStopped.push(...await heldBy(frozen));
    }
    await sleep(20);
  }
  assert.ok(killedClaim && frozenClaim, `both workers committed a batch: ${JSON.stringify(await queue.status())} ${workers.map((w) => w.child.pid + ' ' + w.stderr.slice(-500)).join('\n')}`);
  await sleep(3500); // longer than the 2 s lease: the others claim the frozen worker's partition
  frozen.child.kill('SIGCONT');

  const codes = await Promise.all(workers.slice(1).map((w) => w.exit));
  assert.equal(await killed.exit, null, 'SIGKILLed');
  for (const [i, code] of codes.entries()) assert.equal(code, 0, `worker ${i + 1} exit ${code}: ${workers[i + 1]!.stderr.slice(-3000)}`);
  assert.match(frozen.stderr, /lost partition \d+ .*to another worker/, 'the frozen worker learns it lost its partition');

  const status = await queue.status();
  assert.ok(status.every((s) => s.state === 'done'), JSON.stringify(status));
  assert.ok(status.find((s) => s.partition === killedClaim!.partition)!.attempts >= 2, 'the killed partition was claimed again');
  assert.ok(status.find((s) => s.partition === frozenClaim!.partition)!.attempts >= 2, 'the frozen partition was claimed again');
  assert.equal(await segment.isComplete('crawl_fetch'), true);
  assert.equal(await segment.isComplete('content'), true);

  // every generated URL in crawl_fetch exactly once
  const fetched = new Map<string, number>();
  for await (const { url } of segment.read('crawl_fetch')) fetched.set(url, (fetched.get(url) ?? 0) + 1);
  const generated = partitions.flat();
  assert.equal(fetched.size, generated.length);
  for (const url of generated) assert.equal(fetched.get(url), 1, `${url} in crawl_fetch once`);

  // no URL requested more than twice; twice only in the two partitions that were taken over
  const takenOver = new Set(heldByStopped.flatMap((p) => partitions[p]!));
  for (const url of generated) {
    const n = web.requestsFor(url).length;
    assert.ok(n >= 1 && n <= 2, `${url} requested ${n} times`);
    if (n === 2) assert.ok(takenOver.has(url), `${url} requested twice although its partition was never taken over`);
  }
  // politeness across processes: a host lives in one partition, so never two requests at once per host
  for (const [host, log] of web.requestLog) {
    const reqs = log.filter((r) => r.path !== '/robots.txt').sort((a, b) => a.start - b.start);
    for (let i = 1; i < reqs.length; i++) {
      assert.ok(reqs[i]!.start >= reqs[i - 1]!.end - 1, `${host}: two requests in flight at once`);
    }
  }
});
