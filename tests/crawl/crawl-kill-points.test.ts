/**
 * Kill -9 at exact points of the crawl loop (issue 18): a child runs the loop over the local test web
 * and SIGKILLs itself as a chosen stage is entered or has returned (tests/crawl/crawl-killed-at.ts);
 * then the real `nutch crawl -i` runs again in the same directory. Whatever the point, the re-run must
 * end with the LinkDb and the index equal to an uninterrupted crawl's, every page fetched once. The
 * random-delay variant is tests/crawl/kill9.test.ts; this one pins each boundary, the one between the
 * last updatedb and index first (a re-run used to find nothing to generate and never index).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runNutch } from '../helpers/cli.js';
import { createContext } from '../../core/crawl/context.js';
import { silentLogger } from '../../core/log.js';
import { CrawlStatus } from '../../core/model/crawl-datum.js';
import { CRAWL_STATE_KEY } from '../../core/crawl/crawl/segment-state.js';
import { cliStorageArgs, testStorageUrl } from '../helpers/test-storage.js';
import { startTestWeb, type TestWeb } from '../web/test-web.js';

const DEFINES = ['http.agent.name=killpoints', 'fetcher.server.delay=0', 'linkdb.ignore.internal.links=false', 'storage.batch.size=3'];
// every page is a seed, so one round crawls the whole web and a re-run's round 1 (the resumed segment) is the last
const ROUNDS = '1';

interface CrawlOutcome {
  /** Indexed URLs with their titles, sorted. */
  index: string[];
  /** url <- fromUrl pairs of the LinkDb, sorted. */
  inlinks: string[];
  /** db_fetched URLs of the CrawlDb. */
  fetched: string[];
  /** The crawl loop's mark of each segment. */
  marks: string[];
}

let web: TestWeb;
let reference: CrawlOutcome;
const dirs: string[] = [];

function crawlDir(): string {
  const cwd = mkdtempSync(join(tmpdir(), 'nutch-killpoint-'));
  dirs.push(cwd);
  writeFileSync(join(cwd, 'seeds.txt'), web.allUrls().join('\n') + '\n');
  return cwd;
}

const crawlArgs = (cwd: string) => ['crawl', ...DEFINES.flatMap((d) => ['-D', d]), '-i', '-s', join(cwd, 'seeds.txt'), join(cwd, 'crawl'), ROUNDS];

async function outcome(cwd: string): Promise<CrawlOutcome> {
  const search = await runNutch(['search', join(cwd, 'crawl'), 'page', '-n', '1000', '-json'], { cwd });
  assert.equal(search.code, 0, `the index opens: ${search.stderr}`);
  const index = search.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { url: string; title: string }).map((h) => `${h.url} ${h.title}`).sort();
  const url = testStorageUrl(cwd);
  const ctx = createContext({ cwd, logger: silentLogger, includeBuiltins: true, defines: url ? { 'storage.url': url } : {} });
  try {
    const inlinks: string[] = [];
    const linkDb = await ctx.storage.openLinkDb(join(cwd, 'crawl', 'linkdb'));
    try {
      for await (const { url: to, value } of linkDb.scan()) for (const l of value.inlinks) inlinks.push(`${to} <- ${l.fromUrl} "${l.anchor}"`);
    } finally {
      await linkDb.close();
    }
    const fetched: string[] = [];
    const db = await ctx.storage.openCrawlDb(join(cwd, 'crawl', 'crawldb'));
    try {
      for await (const { url: u, value } of db.scan()) if (value.status === CrawlStatus.STATUS_DB_FETCHED) fetched.push(u);
    } finally {
      await db.close();
    }
    const marks: string[] = [];
    for (const path of await ctx.storage.listSegments(join(cwd, 'crawl', 'segments'))) {
      const seg = await ctx.storage.openSegment(path);
      try {
        marks.push((await seg.readMeta())[CRAWL_STATE_KEY] ?? '(none)');
      } finally {
        await seg.close();
      }
    }
    return { index, inlinks: inlinks.sort(), fetched: fetched.sort(), marks };
  } finally {
    await ctx.close();
  }
}

/** Runs crawl-killed-at.ts in `cwd`; resolves with the signal that ended it. */
function crawlKilledAt(cwd: string, point: string, n: number): Promise<{ signal: string | null; code: number | null; stderr: string }> {
  const script = join(import.meta.dirname, 'crawl-killed-at.ts');
  const storage = cliStorageArgs(['crawl'], cwd).filter((a) => a !== '-D');
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), script, point, String(n), join(cwd, 'seeds.txt'), join(cwd, 'crawl'), ROUNDS, ...DEFINES, ...storage],
    { cwd, env: { PATH: process.env.PATH, NUTCH_CONF_DIR: cwd, NUTCH_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

before(async () => {
  web = await startTestWeb({ hosts: 2, pagesPerHost: 4, linksPerPage: 2, seed: 18 });
  const cwd = crawlDir();
  const clean = await runNutch(crawlArgs(cwd), { cwd });
  assert.equal(clean.code, 0, clean.stderr);
  reference = await outcome(cwd);
  assert.equal(reference.index.length, web.allUrls().length, 'the uninterrupted crawl indexes every page');
  assert.ok(reference.inlinks.length > 0, 'and inverts links');
  assert.deepEqual(reference.marks, ['done'], 'the round marks its segment done');
});

after(async () => {
  await web?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// [point, call]: `before:` lands once the stage before it has committed; `after:clean` just before the round's mark
const POINTS: [string, number][] = [
  ['before:index', 1], // after updatedb, invertlinks and dedup: the re-run has nothing to generate
  ['before:invertlinks', 1], // right after updatedb
  ['after:clean', 1], // the round ended but its segment is not marked done yet
  ['before:updatedb', 1], // fetched and parsed, not merged
  ['after:fetch', 1], // fetched, not parsed (fetcher.parse is false)
];

for (const [point, n] of POINTS) {
  test(`killed -9 at ${point} of call ${n}: the re-run ends with the LinkDb and the index of an uninterrupted crawl, nothing fetched twice`, async () => {
    const cwd = crawlDir();
    web.clearLog();
    const killed = await crawlKilledAt(cwd, point, n);
    assert.equal(killed.signal, 'SIGKILL', `the child killed itself at ${point} (exit ${killed.code}): ${killed.stderr.slice(-2000)}`);
    const again = await runNutch(crawlArgs(cwd), { cwd });
    assert.equal(again.code, 0, again.stderr);
    const got = await outcome(cwd);
    assert.deepEqual(got.index, reference.index, 'the index holds what an uninterrupted crawl indexes');
    assert.deepEqual(got.inlinks, reference.inlinks, 'the LinkDb holds what an uninterrupted crawl inverts');
    assert.deepEqual(got.fetched, reference.fetched);
    assert.ok(got.marks.every((m) => m === 'done'), `every segment is marked done: ${got.marks.join(', ')}`);
    for (const url of got.fetched) assert.equal(web.requestsFor(url).length, 1, `${url} fetched once across the kill and the re-run`);
  });
}
