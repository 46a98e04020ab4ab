/**
 * `nutch worker` takes the fetch partitions of a `nutch crawl` running in another process: on the test
 * run's engine and on a throwaway PostgreSQL cluster (skipped when PostgreSQL is not installed).
 */
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { startTestWeb } from '../web/test-web.js';
import { tempDir, projectRoot } from '../helpers/temp-dir.js';
import { spawnNutch } from '../helpers/cli.js';
import { startPostgres, type PgServer } from '../helpers/postgres-server.js';
import { testStorageEngine, testStorageUrl } from '../helpers/test-storage.js';

const WORKER_AGENT = 'worker-b';
let server: PgServer | null = null;
const ownCluster = testStorageEngine() !== 'postgres';
before(async () => { if (ownCluster) server = await startPostgres(); });
after(async () => { await server?.stop(); });

test('nutch worker fetches partitions of the segments a crawl generates; SIGINT stops it politely', { timeout: 400_000 }, async (t) => {
  const cwd = tempDir(t);
  await workerBesideCrawl(t, cwd, testStorageUrl(cwd));
});

test('nutch worker on PostgreSQL fetches partitions of the segments a crawl generates; SIGINT stops it politely', { timeout: 400_000 }, async (t) => {
  if (!ownCluster) return t.skip('the test above ran on PostgreSQL (NUTCH_TEST_STORAGE=postgres)');
  if (!server) return t.skip('PostgreSQL (initdb, postgres) is not installed');
  await workerBesideCrawl(t, tempDir(t), `${server.url}?schema=worker_command`);
});

async function workerBesideCrawl(t: TestContext, cwd: string, storageUrl: string): Promise<void> {
  // the crawl's own fetch (4 threads: 4 of the 8 one-host partitions at a time) gets no answer until the
  // worker requested something, so on a machine of any speed the worker takes part instead of finding
  // the segment fetched by the time it started
  let workerRequested!: () => void;
  const workerFirst = new Promise<void>((resolve) => (workerRequested = resolve));
  const web = await startTestWeb({
    hosts: 8, pagesPerHost: 6, linksPerPage: 2, latencyMs: 30,
    hold: (req) => {
      if (!String(req.headers['user-agent']).includes(WORKER_AGENT)) return workerFirst;
      workerRequested();
      return undefined;
    },
  });
  t.after(() => web.close());
  writeFileSync(join(cwd, 'nutch-site.json'), JSON.stringify({ 'http.agent.name': 'worker-test', 'fetcher.server.delay': 0.05, 'fetcher.partition.poll': 100, ...(storageUrl ? { 'storage.url': storageUrl } : {}) }));
  mkdirSync(join(cwd, 'urls'));
  writeFileSync(join(cwd, 'urls', 'seeds.txt'), web.allUrls().join('\n') + '\n');
  const env = { PATH: process.env.PATH, NUTCH_CONF_DIR: cwd, NUTCH_LOG_LEVEL: 'info' };
  const worker = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(projectRoot, 'sdk', 'cli', 'main.ts'), 'worker', '-threads', '4', '-D', `http.agent.name=${WORKER_AGENT}`, 'crawl/segments'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let workerLog = '';
  worker.stderr!.setEncoding('utf8').on('data', (c: string) => (workerLog += c));
  const workerExit = new Promise<number | null>((resolve) => worker.on('exit', (code) => resolve(code)));
  t.after(() => worker.kill('SIGKILL'));
  while (!workerLog.includes('worker started on')) await new Promise((r) => setTimeout(r, 100));

  const crawl = await spawnNutch(['crawl', '--num-fetchers', '8', '--num-threads', '4', '-s', 'urls', 'crawl', '1'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  assert.equal(crawl.code, 0, crawl.stderr);
  const list = await spawnNutch(['readseg', '-list', '-dir', 'crawl/segments'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  assert.equal(list.code, 0, list.stderr);

  // every URL fetched exactly once, by whichever process held its partition
  for (const url of web.allUrls()) assert.equal(web.requestsFor(url).length, 1, `${url} requested once`);
  const db = await spawnNutch(['readdb', 'crawl/crawldb', '-stats'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  assert.match(db.stdout, new RegExp(`status 2 \\(db_fetched\\):\\s+${web.allUrls().length}\\b`), db.stdout);

  worker.kill('SIGINT');
  assert.equal(await workerExit, 130, workerLog);
  assert.match(workerLog, /worker started on/);
  assert.match(workerLog, /worker stopped: \d+ segment\(s\) worked on/);
  const fetchedByWorker = Number(/fetch of \d+ done in [\d.]+ s: (\d+) pages/.exec(workerLog)?.[1] ?? 0);
  assert.ok(fetchedByWorker > 0, `the worker fetched part of the crawl's segment: ${workerLog}`);
  assert.ok(fetchedByWorker < web.allUrls().length, 'the crawl fetched the rest');
}
