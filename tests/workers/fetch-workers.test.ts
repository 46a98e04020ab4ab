/**
 * Four `nutch fetch` processes share one segment of 8 partitions (DESIGN §5.1): one is SIGKILLed after
 * its first committed batch, one is SIGSTOPped for longer than its lease and continued once its
 * partitions were taken over. Each worker sends its own User-Agent (http.agent.name), so the test web's
 * request log says who requested what and when: every URL of crawl_generate is in crawl_fetch exactly
 * once, no URL is requested more than twice, and the only URLs requested twice are those a stopped
 * worker had fetched but not committed; the frozen worker, continued, requests nothing of the hosts it
 * lost and its late writes are refused; never more than fetcher.threads.per.queue requests are in
 * flight per host over all workers. Runs on the test run's engine (the embedded one by default) and
 * on a throwaway PostgreSQL 15 cluster (skipped when PostgreSQL is not installed).
 */
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { startTestWeb, type RequestRecord, type TestWeb } from '../web/test-web.js';
import { tempDir, projectRoot } from '../helpers/temp-dir.js';
import { fixtureContext } from '../helpers/context.js';
import { startPostgres, type PgServer } from '../helpers/postgres-server.js';
import { testStorageEngine, testStorageUrl } from '../helpers/test-storage.js';
import { generateSegment } from '../fetch/fetch-helpers.js';
import type { PartitionStatus, Segment } from '../../core/storage/interfaces.js';
import { statusName } from '../../core/model/crawl-datum.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BATCH = 4;
const THREADS_PER_QUEUE = 2;

let server: PgServer | null = null;
const ownCluster = testStorageEngine() !== 'postgres';
before(async () => { if (ownCluster) server = await startPostgres(); });
after(async () => { await server?.stop(); });

test('workers: 4 fetch processes share 8 partitions; a killed and a frozen worker lose nothing and store nothing twice', { timeout: 400_000 }, async (t) => {
  const cwd = tempDir(t);
  await fourWorkers(t, cwd, testStorageUrl(cwd));
});

test('workers on PostgreSQL: 4 fetch processes share 8 partitions; a killed and a frozen worker lose nothing and store nothing twice', { timeout: 400_000 }, async (t) => {
  if (!ownCluster) return t.skip('the test above ran on PostgreSQL (NUTCH_TEST_STORAGE=postgres)');
  if (!server) return t.skip('PostgreSQL (initdb, postgres) is not installed');
  await fourWorkers(t, tempDir(t), `${server.url}?schema=fetch_workers`);
});

interface Worker {
  agent: string;
  child: ChildProcess;
  stderr: string;
  exit: Promise<number | null>;
}

function startWorker(cwd: string, segment: string, agent: string, logLevel = 'info'): Worker {
  // SIGUSR2 writes a diagnostic report (its stack and open handles) when a worker does not end
  mkdirSync(join(cwd, 'reports'), { recursive: true });
  const child = spawn(process.execPath, ['--report-on-signal', '--report-signal=SIGUSR2', `--report-directory=${join(cwd, 'reports')}`, '--import', import.meta.resolve('tsx'), join(projectRoot, 'sdk', 'cli', 'main.ts'), 'fetch', segment, '-threads', '4', '-D', `http.agent.name=${agent}`], {
    cwd, env: { PATH: process.env.PATH, NUTCH_CONF_DIR: cwd, NUTCH_LOG_LEVEL: logLevel }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  const w: Worker = { agent, child, stderr: '', exit: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (w.stderr += c));
  return w;
}

async function fourWorkers(t: TestContext, cwd: string, storageUrl: string): Promise<void> {
  const web = await startTestWeb({ hosts: 16, pagesPerHost: 10, linksPerPage: 2, latencyMs: 40 });
  t.after(() => web.close());
  const conf = {
    'http.agent.name': 'worker-test',
    'fetcher.server.delay': 0.05,
    'fetcher.threads.per.queue': THREADS_PER_QUEUE,
    'storage.batch.size': BATCH,
    'fetcher.partition.lease': 3,
    'fetcher.partition.poll': 100,
    'plugin.includes': 'protocol-http|urlnormalizer-pass',
    ...(storageUrl ? { 'storage.url': storageUrl } : {}),
  };
  writeFileSync(join(cwd, 'nutch-site.json'), JSON.stringify(conf));
  const ctx = Object.assign(fixtureContext(t, { cwd, includeBuiltins: true }), { crawlDir: join(cwd, 'crawl') });
  // 8 partitions of whole hosts (two each), as generate -numFetchers 8 makes them
  const byHost = web.hosts.map((h) => web.allUrls().filter((u) => new URL(u).host === h));
  const partitions = Array.from({ length: 8 }, (_, p) => [...byHost[2 * p]!, ...byHost[2 * p + 1]!]);
  const hostsOf = (p: number) => [web.hosts[2 * p]!, web.hosts[2 * p + 1]!];
  const segPath = await generateSegment(ctx, partitions);
  const segment = await ctx.storage.openSegment(segPath);
  t.after(() => segment.close());
  const queue = segment.fetchPartitions();
  const pidOf = (s: PartitionStatus) => Number(s.worker?.split(':')[1]);
  /** The partitions a worker holds, with the attempt it holds each under. */
  const heldBy = async (w: Worker) => new Map((await queue.status()).filter((s) => s.state === 'running' && pidOf(s) === w.child.pid).map((s) => [s.partition, s.attempts]));

  // the two to be stopped start first, so each surely gets partitions on a loaded machine; the other two
  // start once both were stopped. The frozen one logs each fetch it starts ("fetching <url>", debug).
  const workers = [startWorker(cwd, segPath, 'worker-0'), startWorker(cwd, segPath, 'worker-1', 'debug')];
  t.after(() => { for (const w of workers) { w.child.kill('SIGCONT'); w.child.kill('SIGKILL'); } });
  const [killed, frozen] = workers as [Worker, Worker];
  // should the test itself wait on something that never comes, it says what the workers and the database did
  const watchdog = setTimeout(() => void pgActivity(storageUrl).catch((err) => String(err)).then((db) => console.error(
    `fetch-workers watchdog, still running after 300 s:\n${workers.map((w) => `${w.agent} (pid ${w.child.pid}, exit ${w.child.exitCode}):\n${w.stderr.slice(-2000)}`).join('\n')}\n${db}`)), 300_000);
  t.after(() => clearTimeout(watchdog));
  /** A partition the worker holds with at least one committed batch in crawl_fetch. */
  const hasCommitted = async (w: Worker): Promise<boolean> => {
    for (const s of await queue.status()) {
      if (s.state === 'running' && pidOf(s) === w.child.pid && (await storedUrls(segment, [s.partition])).size > 0) return true;
    }
    return false;
  };
  let killedHeld: Map<number, number> | null = null;
  let frozenHeld: Map<number, number> | null = null;
  // the children may take a while to start on a loaded machine: wait for their first commits, not a fixed time
  for (const deadline = Date.now() + 240_000; Date.now() < deadline && !(killedHeld && frozenHeld); await sleep(20)) {
    if (!killedHeld && await hasCommitted(killed)) {
      killed.child.kill('SIGKILL');
      await killed.exit;
      killedHeld = await heldBy(killed);
    }
    if (!frozenHeld && await hasCommitted(frozen)) {
      frozen.child.kill('SIGSTOP');
      frozenHeld = await heldBy(frozen);
    }
  }
  assert.ok(killedHeld && frozenHeld, `both workers committed a batch: ${JSON.stringify(await queue.status())} ${workers.map((w) => w.child.pid + ' ' + w.stderr.slice(-500)).join('\n')}`);
  workers.push(startWorker(cwd, segPath, 'worker-2'), startWorker(cwd, segPath, 'worker-3'));
  // what each had committed when it stopped (a commit the server finished a moment later only makes this smaller)
  const killedCommitted = await storedUrls(segment, [...killedHeld.keys()]);
  const frozenCommitted = await storedUrls(segment, [...frozenHeld.keys()]);
  assert.ok(killedCommitted.size > 0 && frozenCommitted.size > 0);

  // the frozen worker is continued only once every partition it held was taken over (its lease ran out)
  const takenOver = async () => (await queue.status()).filter((s) => frozenHeld!.has(s.partition)).every((s) => s.attempts > frozenHeld!.get(s.partition)!);
  for (const deadline = Date.now() + 120_000; Date.now() < deadline && !(await takenOver()); await sleep(100));
  assert.ok(await takenOver(), `the frozen worker's partitions were claimed again: ${JSON.stringify(await queue.status())}`);
  const continuedAt = Date.now();
  frozen.child.kill('SIGCONT');

  // a worker that does not end is a failure with its log, not a test timeout without one
  for (const w of workers.slice(1)) {
    const code = await exitWithin(w, 180_000, async () => `${await hungReport(w, cwd)}\n${await pgActivity(storageUrl)}`);
    assert.equal(code, 0, `${w.agent} exit: ${w.stderr.slice(-3000)}\npartitions: ${JSON.stringify(await queue.status())}`);
  }
  assert.equal(await killed.exit, null, 'SIGKILLed');
  assert.match(frozen.stderr, /lost partition \d+ \(attempt \d+\) to another worker/, 'the frozen worker\'s late renewal or write was refused: it learns it lost its partition');

  const status = await queue.status();
  assert.ok(status.every((s) => s.state === 'done'), JSON.stringify(status));
  for (const [p, attempt] of [...killedHeld, ...frozenHeld]) assert.ok(status[p]!.attempts > attempt, `partition ${p} was claimed again`);
  assert.equal(await segment.isComplete('crawl_fetch'), true);
  assert.equal(await segment.isComplete('content'), true);

  // every generated URL in crawl_fetch exactly once
  const fetched = new Map<string, number>();
  const statusOf = new Map<string, string>();
  for await (const { url, value } of segment.read('crawl_fetch')) {
    fetched.set(url, (fetched.get(url) ?? 0) + 1);
    statusOf.set(url, statusName(value.status));
  }
  const generated = partitions.flat();
  assert.equal(fetched.size, generated.length);
  for (const url of generated) assert.equal(fetched.get(url), 1, `${url} in crawl_fetch once`);

  // who requested what: no URL more than twice; twice only what a worker fetched and had not committed
  // before it lost the partition — the killed and the frozen worker, and (on a machine so loaded that a
  // healthy worker could not renew its lease in time) a worker that logged the loss
  const agentOf = (r: RequestRecord) => /worker-\d/.exec(String(r.headers['user-agent']))?.[0] ?? '?';
  const partitionOf = new Map(partitions.flatMap((urls, p) => urls.map((u) => [u, p] as const)));
  const lostBy = new Map(workers.map((w) => [w.agent, new Set([...w.stderr.matchAll(/lost partition (\d+)/g)].map((m) => Number(m[1])))]));
  for (const p of killedHeld.keys()) lostBy.get(killed.agent)!.add(p);
  const committedBy = new Map([[killed.agent, killedCommitted], [frozen.agent, frozenCommitted]]);
  // A fetch the frozen worker had started before it was stopped may still reach the host after (connecting,
  // or between robots.txt and the page): those it logged as started before it was continued.
  // (every time it logged: a URL it fetched before it was stopped may be fetched again once it re-claimed the partition)
  const startedAt = new Map<string, number[]>();
  for (const m of frozen.stderr.matchAll(/^(\S+) DEBUG +fetching (\S+) /gm)) startedAt.set(m[2]!, [...startedAt.get(m[2]!) ?? [], Date.parse(m[1]!)]);
  const started = (url: string) => (startedAt.get(url) ?? []).some((at) => at < continuedAt);
  const refetched = new Map<string, number>();
  for (const url of generated) {
    const reqs = web.requestsFor(url);
    assert.ok(reqs.length <= 2, `${url} requested ${reqs.length} times`);
    // never requested: only a URL its partition's failure returned to the CrawlDb (claimed
    // fetcher.partition.max.attempts times without finishing, as leases run out on a loaded machine)
    if (reqs.length === 0) assert.equal(statusOf.get(url), 'fetch_retry', `${url} was never requested, yet stored as ${statusOf.get(url)}`);
    if (reqs.length === 0) continue;
    if (reqs.length === 1) continue;
    const [first, second] = reqs.map(agentOf) as [string, string];
    assert.notEqual(second, first, `${url}: requested twice by ${first}`);
    // the one that lost the partition is usually first; a fetch the frozen worker started before SIGSTOP
    // reaches the host when it is continued, after the new owner's (docs/scale-out.md names that window)
    const loser = [first, second].find((a) => lostBy.get(a)?.has(partitionOf.get(url)!) && !committedBy.get(a)?.has(url));
    assert.ok(loser, `${url} requested by ${first} then ${second}, although neither lost partition ${partitionOf.get(url)} before committing it`);
    if (loser === second) assert.ok(loser === frozen.agent && started(url), `${url} requested by ${second} after ${first} took its partition over, and not a fetch ${second} started before it was stopped`);
    refetched.set(loser, (refetched.get(loser) ?? 0) + 1);
  }
  for (const url of [...killedCommitted, ...frozenCommitted]) assert.equal(web.requestsFor(url).length, 1, `${url}, committed before its worker stopped, was resumed past`);
  t.diagnostic(`URLs requested twice, by who fetched them first: ${JSON.stringify(Object.fromEntries(refetched))}; partitions killed ${[...killedHeld.keys()]}, frozen ${[...frozenHeld.keys()]}`);

  // the continued worker requested nothing of the hosts it no longer owned (until it claimed their
  // partition anew, should the worker that took it over have lost it in turn on a loaded machine)
  const reclaimedAt = new Map<number, number>();
  for (const m of frozen.stderr.matchAll(/^(\S+) INFO +partition (\d+) claimed again/gm)) {
    if (Date.parse(m[1]!) >= continuedAt && !reclaimedAt.has(Number(m[2]))) reclaimedAt.set(Number(m[2]), Date.parse(m[1]!));
  }
  for (const [p] of frozenHeld) {
    const until = reclaimedAt.get(p) ?? Infinity;
    // Judged by the requests the hosts saw, not by the "fetching" log lines: the ownership check can pass
    // just before SIGSTOP and its log line be written just after SIGCONT; the check asked again right
    // before the page (after robots.txt) then stops it, so no request follows such a line.
    for (const host of hostsOf(p)) {
      const late = (web.requestLog.get(host) ?? []).filter((r) => agentOf(r) === frozen.agent && r.start >= continuedAt && r.start < until)
        .filter((r) => r.path === '/robots.txt' ? !partitions[p]!.some((u) => new URL(u).host === host && started(u)) : !started(`http://${host}${r.path}`));
      assert.deepEqual(late.map((r) => r.path), [], `${frozen.agent} requested ${host} after it was continued: ${frozen.stderr.slice(-3000)}`);
    }
  }
  // politeness over all workers; a request of a worker that lost the host's partition (sent just before it
  // noticed: the frozen worker's fetch started before SIGSTOP, a healthy worker's lease lost on a loaded
  // machine) may overlap the new owner's, as a re-run map task's may in Nutch — counted, never two owners
  const hostPartition = new Map(Array.from({ length: 8 }, (_, p) => hostsOf(p).map((h) => [h, p] as const)).flat());
  const lostHostOf = (host: string, r: RequestRecord) => lostBy.get(agentOf(r))?.has(hostPartition.get(host)!) === true;
  const overlapsNextOwner = (host: string, r: RequestRecord) => web.requestLog.get(host)!.some((o) => agentOf(o) !== agentOf(r) && o.start >= r.start && o.start < r.end);
  const overlaps = assertPoliteness(web, THREADS_PER_QUEUE, (host, r) => lostHostOf(host, r) && overlapsNextOwner(host, r));
  t.diagnostic(`requests of a worker that had lost the host's partition overlapping its new owner's beyond ${THREADS_PER_QUEUE}: ${overlaps}`);
}

/**
 * The worker's exit code, or 'still running: <diagnosis>' once `ms` passed (the worker is then killed):
 * a hang fails with what the worker and the database were doing, not as a bare test timeout.
 */
async function exitWithin(w: Worker, ms: number, diagnose: () => Promise<string>): Promise<number | null | string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), ms); });
  const code = await Promise.race([w.exit, late]);
  clearTimeout(timer);
  if (code !== 'late') return code;
  const diagnosis = await diagnose().catch((err) => `no diagnosis: ${err}`);
  w.child.kill('SIGKILL');
  return `still running after ${ms} ms: ${diagnosis}`;
}

/** The hung worker's JavaScript stack and open libuv handles, from the report SIGUSR2 makes it write. */
async function hungReport(w: Worker, cwd: string): Promise<string> {
  const dir = join(cwd, 'reports');
  w.child.kill('SIGUSR2');
  for (let i = 0; i < 300; i++, await sleep(100)) {
    const file = readdirSync(dir).find((f) => f.includes(`.${w.child.pid}.`));
    if (!file) continue;
    let report: { javascriptStack?: { stack?: string[] }; libuv?: { type: string; is_active?: boolean; remoteEndpoint?: unknown }[] };
    try {
      report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch {
      continue; // still being written
    }
    const handles = (report.libuv ?? []).filter((h) => h.is_active).map((h) => `${h.type}${h.remoteEndpoint ? ' ' + JSON.stringify(h.remoteEndpoint) : ''}`);
    return `${w.agent} stack: ${(report.javascriptStack?.stack ?? []).slice(0, 8).join(' | ')}; active handles: ${handles.join(', ')}`;
  }
  return `${w.agent}: no diagnostic report`;
}

/** The database's sessions that are not idle: what each waits on. */
async function pgActivity(storageUrl: string | undefined): Promise<string> {
  if (!storageUrl?.startsWith('postgres')) return '';
  const client = new pg.Client({ connectionString: storageUrl.replace(/\?.*$/, '') });
  await client.connect();
  try {
    const r = await client.query("SELECT pid, state, wait_event_type, wait_event, now() - xact_start AS xact_age, left(query, 160) AS query FROM pg_stat_activity WHERE state IS NOT NULL AND state <> 'idle' AND pid <> pg_backend_pid()");
    return `sessions: ${JSON.stringify(r.rows)}`;
  } finally {
    await client.end();
  }
}

/** URLs in crawl_fetch of these partitions. */
async function storedUrls(segment: Segment, partitions: number[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const partition of partitions) for await (const { url } of segment.read('crawl_fetch', { partition })) out.add(url);
  return out;
}

/**
 * Politeness across processes, from the test web's log: never more than `max` requests in flight per host,
 * not counting requests `excused` (sent by a worker that no longer owned the host). Returns how many
 * times an excused request took a host beyond `max`.
 */
function assertPoliteness(web: TestWeb, max: number, excused: (host: string, r: RequestRecord) => boolean): number {
  let overlaps = 0;
  for (const [host, log] of web.requestLog) {
    const events = log.flatMap((r) => [[r.start, 1, r], [r.end, -1, r]] as [number, number, RequestRecord][]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let inFlight = 0, owners = 0;
    for (const [at, delta, r] of events) {
      inFlight += delta;
      if (!excused(host, r)) owners += delta;
      assert.ok(owners <= max, `${host}: ${owners} requests of its partition's owners in flight at ${at} (fetcher.threads.per.queue=${max})`);
      if (delta > 0 && inFlight > max) overlaps++;
    }
  }
  return overlaps;
}
