/**
 * What only the PostgreSQL engine has, against throwaway PostgreSQL 15 clusters: store names shared
 * by every spelling of a path, and each bad input — an unreachable database, wrong credentials, the
 * server stopped by PID mid-session, a schema of a newer version — a clear error naming the culprit,
 * committed data intact (the stop by PID also in the middle of `nutch fetch`, which a re-run resumes);
 * and a fetch worker frozen inside a fenced write, which must not keep its
 * partition past the lease.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { PostgresStorageEngine } from '../../core/storage/postgres/postgres-engine.js';
import { PgDatabase } from '../../core/storage/postgres/pg-database.js';
import { parseStorageUrl } from '../../core/storage/postgres/pg-target.js';
import { runNutch, spawnNutch, startNutch } from '../helpers/cli.js';
import { startTestWeb } from '../web/test-web.js';
import { startPostgres, type PgServer } from '../helpers/postgres-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { collect, datum } from './conformance.js';
import { CrawlStatus } from '../../core/model/crawl-datum.js';

let server: PgServer | null = null;
let n = 0;

before(async () => {
  server = await startPostgres({ password: 's3cret' });
});
after(async () => {
  await server?.stop();
});

/** A segment whose one crawl_generate partition lists `urls`, as generate would write it, opened again for reading. */
async function generatedSegment(engine: PostgresStorageEngine, urls: string[]) {
  const created = await engine.createSegment('crawl/segments');
  const gen = await created.openWriter('crawl_generate', 0, { totalPartitions: 1 });
  await gen.append(urls.map((u, i) => ({ url: u, value: datum(i) })));
  await gen.finish();
  await gen.close();
  const segPath = `crawl/segments/${created.name}`;
  await created.close();
  return { segPath, seg: await engine.openSegment(segPath) };
}

function schemaUrl(): string {
  if (!server) throw new Error('PostgreSQL 15 (initdb) is not installed');
  return `${server.url}?schema=e_${++n}`;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

test('store names: relative, absolute, ./ and trailing-slash spellings under cwd name the same store', async (t) => {
  const cwd = tempDir(t);
  const url = schemaUrl();
  const a = new PostgresStorageEngine({ url, cwd });
  const b = new PostgresStorageEngine({ url, cwd: path.join(cwd, 'sub', '..') });
  t.after(async () => { await a.close(); await b.close(); });
  const db = await a.openCrawlDb('crawl/crawldb');
  const up = await db.beginUpdate();
  await up.put([{ url: 'http://a/', value: datum(1) }]);
  await up.commit();
  for (const spelling of [path.join(cwd, 'crawl', 'crawldb'), './crawl/crawldb/', 'crawl//crawldb', `${cwd}/crawl/./crawldb/`]) {
    const other = await b.openCrawlDb(spelling);
    assert.equal(await other.count(), 1, spelling);
    const held = await db.beginUpdate();
    await assert.rejects(other.beginUpdate(), { code: 'NUTCH_STORAGE_LOCKED' }, `${spelling} shares the lock`);
    await held.abort();
    await other.close();
  }
  const seg = await a.createSegment('crawl/segments');
  assert.deepEqual(await b.listSegments(path.join(cwd, 'crawl', 'segments')), [path.join(cwd, 'crawl', 'segments', seg.name)]);
  assert.equal((await b.openSegment(path.join(cwd, 'crawl', 'segments', seg.name + '/'))).name, seg.name);
  const outside = await a.openCrawlDb('/elsewhere/crawldb');
  assert.equal(await outside.exists(), false, 'a path outside cwd is its own store');
  await outside.close();
  await db.close();
});

test('an unreachable database URL is NUTCH_STORAGE_UNREACHABLE naming the URL, password redacted', async (t) => {
  const cwd = tempDir(t);
  mkdirSync(path.join(cwd, 'urls'));
  writeFileSync(path.join(cwd, 'urls', 'seed.txt'), 'http://127.0.0.1:9/\n');
  const port = await freePort();
  const r = await runNutch(['inject', 'crawl/crawldb', 'urls', '-D', `storage.url=postgresql://nutch:hunter2@127.0.0.1:${port}/crawl`], { cwd });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /NUTCH_STORAGE_UNREACHABLE/);
  assert.ok(r.stderr.includes(`postgresql://nutch:***@127.0.0.1:${port}/crawl`), r.stderr);
  assert.ok(!r.stderr.includes('hunter2'), 'password never printed');
  const missing = await runNutch(['readdb', 'crawl/crawldb', '-stats', '-D', `storage.url=${server!.url.replace(/\/postgres$/, '/no_such_db')}`], { cwd });
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /NUTCH_STORAGE_UNREACHABLE.*no_such_db|no_such_db[\s\S]*NUTCH_STORAGE_UNREACHABLE/);
});

test('wrong credentials are NUTCH_STORAGE_AUTH_FAILED naming the database', async (t) => {
  const cwd = tempDir(t);
  const bad = server!.url.replace(':s3cret@', ':wrong@');
  const r = await runNutch(['readdb', 'crawl/crawldb', '-stats', '-D', `storage.url=${bad}`], { cwd });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /NUTCH_STORAGE_AUTH_FAILED/);
  assert.ok(r.stderr.includes(`postgres://nutch:***@127.0.0.1:${server!.port}/postgres`), r.stderr);
  assert.ok(!r.stderr.includes('wrong@'));
});

test('an unknown storage.url scheme is NUTCH_CONFIG_INVALID_VALUE naming the property', async (t) => {
  const r = await runNutch(['readdb', 'crawl/crawldb', '-stats', '-D', 'storage.url=mysql://u:pw@127.0.0.1/db'], { cwd: tempDir(t) });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /NUTCH_CONFIG_INVALID_VALUE[\s\S]*storage\.url/);
  assert.ok(!r.stderr.includes(':pw@'));
});

test('the server stopped by PID mid-session: NUTCH_STORAGE_CONNECTION_LOST naming the store; committed data intact, lock gone', async (t) => {
  const cwd = tempDir(t);
  const url = schemaUrl();
  const engine = new PostgresStorageEngine({ url, cwd, batchSize: 10 });
  t.after(() => engine.close());
  const db = await engine.openCrawlDb('crawl/crawldb');
  let up = await db.beginUpdate();
  await up.put(Array.from({ length: 50 }, (_, i) => ({ url: `http://kept/${i}`, value: datum(i) })));
  await up.commit();
  up = await db.beginUpdate();
  await up.put([{ url: 'http://lost/', value: datum(99) }]);
  await up.delete(['http://kept/0']);
  const scan = db.scan({ batchSize: 10 })[Symbol.asyncIterator]();
  await scan.next();
  await server!.halt();
  t.after(() => server!.restart()); // also when an assertion below fails, for the tests after this one
  // puts are buffered (written PUT_ROWS at a time): the break is reported by the next write that reaches the server, at the latest by commit()
  await up.put([{ url: 'http://lost/2', value: datum(100) }]);
  await assert.rejects(up.commit(), (err: { code: string; message: string }) => {
    assert.equal(err.code, 'NUTCH_STORAGE_CONNECTION_LOST');
    assert.match(err.message, /crawl\/crawldb/);
    assert.match(err.message, /committed before is intact/);
    return true;
  });
  await assert.rejects(up.commit(), { code: 'NUTCH_STORAGE_CONNECTION_LOST' }, 'the session is over');
  await assert.rejects(up.put([{ url: 'http://lost/3', value: datum(101) }]), { code: 'NUTCH_STORAGE_CONNECTION_LOST' });
  await up.abort();
  const lost = (err: { code: string }) => ['NUTCH_STORAGE_CONNECTION_LOST', 'NUTCH_STORAGE_UNREACHABLE'].includes(err.code);
  // a scan streams its snapshot (one COPY): the one started before the halt may have received every row
  // already, and then ends normally; if not, it fails naming the storage; one started now cannot start
  try {
    for (let i = 0; i < 60 && !(await scan.next()).done; i++);
  } catch (err) {
    assert.ok(lost(err as { code: string }), String(err));
  }
  await assert.rejects(collect(db.scan()), lost);
  await server!.restart();
  assert.equal(await db.count(), 50, 'the committed state, nothing of the broken session');
  assert.equal(await db.get('http://lost/'), null);
  assert.ok(await db.get('http://kept/0'));
  const again = await db.beginUpdate();
  await again.abort();
  assert.equal((await collect(db.scan())).length, 50);
  await db.close();
});

test('a database of a newer schema version is refused with NUTCH_STORAGE_SCHEMA_NEWER, and left as it was', async (t) => {
  const cwd = tempDir(t);
  const url = schemaUrl();
  const first = new PostgresStorageEngine({ url, cwd });
  const db = await first.openCrawlDb('crawl/crawldb');
  const up = await db.beginUpdate();
  await up.put([{ url: 'http://a/', value: datum(1) }]);
  await up.commit();
  await db.close();
  await first.close();
  const schema = new URL(url).searchParams.get('schema')!;
  const admin = new pg.Client({ connectionString: server!.url });
  await admin.connect();
  t.after(() => admin.end());
  await admin.query(`UPDATE "${schema}".nutch_schema SET version = 99`);
  const later = new PostgresStorageEngine({ url, cwd });
  t.after(() => later.close());
  await assert.rejects(later.openCrawlDb('crawl/crawldb'), (err: { code: string; message: string }) => {
    assert.equal(err.code, 'NUTCH_STORAGE_SCHEMA_NEWER');
    assert.match(err.message, /version 99/);
    assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${server!.port}`));
    assert.ok(!err.message.includes('s3cret'));
    return true;
  });
  assert.equal((await admin.query(`SELECT version FROM "${schema}".nutch_schema`)).rows[0].version, 99);
  assert.equal((await admin.query(`SELECT count(*)::int AS n FROM "${schema}".nutch_crawldb`)).rows[0].n, 1);
  const r = await runNutch(['readdb', 'crawl/crawldb', '-stats', '-D', `storage.url=${url}`], { cwd });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /NUTCH_STORAGE_SCHEMA_NEWER/);
});

test('a worker frozen inside a fenced write keeps no partition past its lease: the database ends its transaction, another worker takes over, the late write is refused', { timeout: 60_000 }, async (t) => {
  const cwd = tempDir(t);
  const url = schemaUrl();
  const engine = new PostgresStorageEngine({ url, cwd });
  t.after(() => engine.close());
  const created = await engine.createSegment('crawl/segments');
  const gen = await created.openWriter('crawl_generate', 0, { totalPartitions: 1 });
  await gen.append([{ url: 'http://h0/', value: datum(0) }]);
  await gen.finish();
  await gen.close();
  const segPath = path.join(cwd, 'crawl', 'segments', created.name);
  await created.close();

  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(import.meta.dirname, 'fenced-writer-child.ts'), url, segPath], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGKILL'));
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  while (!out.includes('appended')) {
    assert.equal(child.exitCode, null, `the writer runs: ${out} ${err}`);
    await sleep(20);
  }
  // freeze it between two statements of a fenced append (its session idle in transaction, the claim's row locked)
  const admin = new pg.Client({ connectionString: server!.url });
  await admin.connect();
  t.after(() => admin.end());
  const app = `nutch-ts ${os.hostname()}:${child.pid}`.slice(0, 63);
  for (let tries = 0; ; tries++) {
    assert.ok(tries < 500, 'the writer was caught inside a transaction');
    child.kill('SIGSTOP');
    const r = await admin.query("SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle in transaction'", [app]);
    if (r.rowCount) break;
    child.kill('SIGCONT');
    await sleep(3);
  }
  // another worker gets the partition once the lease ran out and the database ended the frozen transaction
  const seg = await engine.openSegment(segPath);
  t.after(() => seg.close());
  const q = seg.fetchPartitions();
  let takeover = null;
  for (const deadline = Date.now() + 30_000; !takeover && Date.now() < deadline; await sleep(50)) {
    takeover = (await q.claim('other', { leaseMs: 60_000, maxAttempts: 4 })).claim;
  }
  assert.ok(takeover, `the frozen writer's partition was taken over: ${JSON.stringify(await q.status())}`);
  assert.equal(takeover.attempt, 2);
  const stored = (await collect(seg.read('crawl_fetch', { partition: 0 }))).length;

  child.kill('SIGCONT');
  assert.equal(await exited, 0, err);
  assert.match(out, /error NUTCH_LEASE_LOST Partition 0 of .*crawl\/segments\//, 'the late write is refused as a lost lease');
  const committed = Number([...out.matchAll(/appended (\d+)/g)].at(-1)![1]);
  assert.equal(committed, stored, 'every append the writer saw committed is stored, the frozen one is not');
  assert.equal((await collect(seg.read('crawl_fetch', { partition: 0 }))).length, stored, 'nothing written after the takeover');
  const w = await seg.openWriter('crawl_fetch', 0, { fence: takeover });
  await w.append([{ url: 'http://h0/new', value: datum(99) }]);
  await w.finish();
  await w.close();
  await q.complete(takeover);
  assert.equal((await q.status())[0]!.state, 'done');
});

test('a transaction the server ended for standing idle past its limit (a frozen worker) is reported as that, not as a lost database, even once the closed connection was read', async (t) => {
  const db = new PgDatabase(parseStorageUrl(schemaUrl()), 100, undefined, 2);
  t.after(() => db.end());
  const idledOut = new Error('idled out');
  const failure = await db.transaction('crawl/segments/s', async (c) => {
    await c.query('SELECT 1');
    // the process stands still past the 1 s limit (as under SIGSTOP): the server ends the session...
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
    // ...and, continued, the process reads the server's reason and then the closed socket before its next statement
    await sleep(100);
    await c.query('SELECT 2');
  }, { idleTimeoutMs: 1000, onIdleTimeout: () => idledOut }).then(() => null, (err: unknown) => err);
  assert.equal(failure, idledOut, `the idle timeout is recognised: ${String((failure as Error | null)?.message)}`);
  assert.deepEqual((await db.query('crawl/segments/s', 'SELECT 1 AS n')).rows, [{ n: 1 }], 'the pool hands out a working connection after it');
});

test('a lone nutch fetch frozen inside a fenced write past its lease, no other worker asking: the database ends that write, the worker takes its partition up again without using an attempt and completes', { timeout: 120_000 }, async (t) => {
  const cwd = tempDir(t);
  const url = schemaUrl();
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 25, linksPerPage: 1, latencyMs: 10 });
  t.after(() => web.close());
  // fetcher.partition.max.attempts 1: a re-claim of its own partition that counted would fail it
  writeFileSync(path.join(cwd, 'nutch-site.json'), JSON.stringify({
    'http.agent.name': 'lone-frozen-test', 'storage.url': url, 'storage.batch.size': 1, 'fetcher.server.delay': 0.1,
    'fetcher.partition.lease': 1, 'fetcher.partition.max.attempts': 1, 'fetcher.partition.poll': 50,
    'plugin.includes': 'protocol-http|urlnormalizer-pass',
  }));
  const engine = new PostgresStorageEngine({ url, cwd });
  t.after(() => engine.close());
  const urls = web.allUrls();
  const { segPath, seg } = await generatedSegment(engine, urls);
  t.after(() => seg.close());

  const { child, result } = startNutch(['fetch', segPath, '-threads', '2'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  t.after(() => { child.kill('SIGCONT'); child.kill('SIGKILL'); });
  for (const deadline = Date.now() + 60_000; Date.now() < deadline && child.exitCode === null && (await seg.count('crawl_fetch')) === 0;) await sleep(20);
  // stopped between two statements of a fenced write (its session idle in transaction)
  const admin = new pg.Client({ connectionString: server!.url });
  await admin.connect();
  t.after(() => admin.end());
  const app = `nutch-ts ${os.hostname()}:${child.pid}`.slice(0, 63);
  let backend = 0;
  for (let tries = 0; !backend; tries++) {
    assert.ok(tries < 1000 && child.exitCode === null, 'the fetch was caught inside a fenced write');
    child.kill('SIGSTOP');
    const r = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle in transaction' AND (query LIKE 'COPY %' OR query LIKE '%FOR SHARE')", [app]);
    if (r.rows[0]) backend = r.rows[0].pid;
    else {
      child.kill('SIGCONT');
      await sleep(3);
    }
  }
  // the database ends the transaction once it stood idle for the lease; nobody else claims the partition
  for (let i = 0; (await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [backend])).rowCount; i++) {
    assert.ok(i < 500, 'the frozen write\'s session was ended');
    await sleep(20);
  }
  child.kill('SIGCONT');
  const run = await result;
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stderr, /NUTCH_STORAGE_CONNECTION_LOST|partition 0 failed/);
  const fetched = await collect(seg.read('crawl_fetch'));
  assert.deepEqual(fetched.map((r) => r.url).sort(), [...urls].sort(), 'every URL in crawl_fetch exactly once');
  assert.deepEqual([...new Set(fetched.map((r) => r.value.status))], [CrawlStatus.STATUS_FETCH_SUCCESS], 'all fetched, none returned unfetched by a failed partition');
  const [status] = await seg.fetchPartitions().status();
  assert.equal(status!.state, 'done');
});

test('the server stopped by PID in the middle of nutch fetch: the stage stops with a storage error naming the database, the committed batches stay, a re-run resumes after them', { timeout: 300_000 }, async (t) => {
  const cwd = tempDir(t);
  const url = schemaUrl();
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 30, linksPerPage: 1, latencyMs: 20 });
  t.after(() => web.close());
  writeFileSync(path.join(cwd, 'nutch-site.json'), JSON.stringify({
    'http.agent.name': 'pg-gone-test', 'storage.url': url, 'storage.batch.size': 2, 'fetcher.server.delay': 0.05,
    'plugin.includes': 'protocol-http|urlnormalizer-pass',
  }));
  const engine = new PostgresStorageEngine({ url, cwd });
  t.after(() => engine.close());
  const urls = web.allUrls();
  const { segPath, seg } = await generatedSegment(engine, urls);

  const { child, result } = startNutch(['fetch', segPath, '-threads', '2'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  t.after(() => child.kill('SIGKILL'));
  for (const deadline = Date.now() + 120_000; Date.now() < deadline && (await seg.count('crawl_fetch')) === 0;) await sleep(20);
  await server!.halt();
  t.after(() => server!.restart());
  const run = await result;
  await server!.restart();
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stderr, /NUTCH_STORAGE_(CONNECTION_LOST|UNREACHABLE)/);
  assert.ok(run.stderr.includes(`127.0.0.1:${server!.port}`), `names the database: ${run.stderr}`);
  assert.ok(!/\n\s+at /.test(run.stderr), `no stack trace: ${run.stderr}`);
  const committed = await collect(seg.read('crawl_fetch'));
  assert.ok(committed.length > 0 && committed.length < urls.length, `${committed.length} committed before the server stopped`);

  const again = await spawnNutch(['fetch', segPath, '-threads', '2'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  assert.equal(again.code, 0, again.stderr);
  const all = (await collect(seg.read('crawl_fetch'))).map((r) => r.url);
  assert.deepEqual([...all].sort(), [...urls].sort(), 'every URL in crawl_fetch exactly once');
  for (const r of committed) assert.equal(web.requestsFor(r.url).length, 1, `${r.url}, committed before the break, not fetched again`);
  await seg.close();
});
