/**
 * `nutch crawl` under a process manager: SIGTERM is a polite stop, a second signal stops at once, and
 * the next `nutch crawl` finishes the segment the stopped one left instead of generating a new one.
 * Real child processes over the local test web; the web's request log says what was fetched.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNutch, spawnNutch, startNutch, type CliResult } from '../helpers/cli.js';
import { fixtureContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestWeb, type TestWeb } from '../web/test-web.js';
import { CrawlStatus } from '../../core/model/crawl-datum.js';
import type { NutchContext } from '../../core/crawl/context.js';
import type { SegmentPartName } from '../../core/storage/interfaces.js';

const pageRequests = (web: TestWeb) => [...web.requestLog.values()].flat().filter((r) => r.path !== '/robots.txt').length;

/** Resolves once `n` page requests reached the web; rejects if the crawl ended first. */
function waitForRequests(web: TestWeb, n: number, running: Promise<CliResult>): Promise<void> {
  return new Promise((resolve, reject) => {
    let ended = false;
    running.then((r) => { ended = true; reject(new Error(`crawl ended before ${n} requests: ${r.code}\n${r.stderr}`)); }, reject);
    const tick = setInterval(() => {
      if (ended) return clearInterval(tick);
      if (pageRequests(web) >= n) {
        clearInterval(tick);
        resolve();
      }
    }, 5);
  });
}

async function partUrls(ctx: NutchContext, segment: string, part: SegmentPartName): Promise<string[]> {
  const s = await ctx.storage.openSegment(segment);
  try {
    const urls: string[] = [];
    for await (const { url } of s.read(part)) urls.push(url);
    return urls;
  } finally {
    await s.close();
  }
}

async function complete(ctx: NutchContext, segment: string, part: SegmentPartName): Promise<boolean> {
  const s = await ctx.storage.openSegment(segment);
  try {
    return await s.isComplete(part);
  } finally {
    await s.close();
  }
}

async function crawlDbStatus(ctx: NutchContext, crawlDb: string, urls: string[]): Promise<Map<string, number>> {
  const db = await ctx.storage.openCrawlDb(crawlDb);
  try {
    return new Map([...await db.getMany(urls)].map(([u, d]) => [u, d.status]));
  } finally {
    await db.close();
  }
}

async function slowWeb(t: TestContext): Promise<{ web: TestWeb; cwd: string }> {
  // 2 hosts × 15 pages, one connection per host, 100 ms before each response: the fetch takes well
  // over a second, so a stop sent after the first requests lands mid-fetch
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 15, linksPerPage: 2, latencyMs: 100, seed: 9 });
  t.after(() => web.close());
  const cwd = tempDir(t);
  writeFileSync(join(cwd, 'seeds.txt'), web.allUrls().join('\n') + '\n');
  return { web, cwd };
}

const crawlArgv = ['crawl', '-D', 'http.agent.name=resume-test', '-Dfetcher.server.delay=0.01', '-Dstorage.batch.size=2', '-s', 'seeds.txt', 'crawl', '1'];

test('nutch crawl killed with SIGTERM mid-fetch, then re-run, finishes the stopped segment: every URL fetched once, parsed and in the CrawlDb, no second segment', async (t) => {
  const { web, cwd } = await slowWeb(t);
  const env = { NUTCH_CONF_DIR: cwd };
  const first = startNutch(crawlArgv, { cwd, env });
  await waitForRequests(web, 2, first.result);
  first.child.kill('SIGTERM');
  const stopped = await first.result;
  assert.equal(stopped.code, 130, stopped.stderr);
  assert.match(stopped.stderr, /Received SIGTERM: stopping politely/);
  const said = /Crawl stopped by signal in round 1 during fetch of segment (\d{14})/.exec(stopped.stdout);
  assert.ok(said, stopped.stdout);

  const ctx = fixtureContext(t, { cwd });
  const segmentsDir = join(cwd, 'crawl', 'segments');
  const [segment, ...others] = await ctx.storage.listSegments(segmentsDir);
  assert.ok(segment?.endsWith(said[1]!) && others.length === 0);
  const generated = await partUrls(ctx, segment, 'crawl_generate');
  assert.deepEqual([...generated].sort(), web.allUrls().sort(), 'round 1 generated every seed');
  const fetchedBefore = await partUrls(ctx, segment, 'crawl_fetch');
  assert.ok(fetchedBefore.length > 0 && fetchedBefore.length < generated.length, `stopped mid-fetch: ${fetchedBefore.length} of ${generated.length} stored`);
  assert.equal(await complete(ctx, segment, 'crawl_fetch'), false);
  for (const url of fetchedBefore) assert.equal(web.requestsFor(url).length, 1, `${url}: what was in flight finished and was committed`);

  const again = await spawnNutch(crawlArgv, { cwd, env });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stderr.match(/left unfinished by a stopped crawl/g)?.length, 1, again.stderr);
  assert.match(again.stderr, new RegExp(`Segment ${said[1]} was left unfinished by a stopped crawl \\(crawl_fetch has no _SUCCESS\\): finishing it in round 1 \\(resumed fetch, parse, updatedb`));
  assert.match(again.stdout, new RegExp(`round 1 \\(segment ${said[1]}, resumed\\): fetched ${generated.length - fetchedBefore.length} \\(success=\\d+\\), ${fetchedBefore.length} already fetched before the stop, parsed ${generated.length}`));

  assert.deepEqual(await ctx.storage.listSegments(segmentsDir), [segment], 'no second segment');
  for (const url of generated) assert.equal(web.requestsFor(url).length, 1, `${url} fetched exactly once`);
  for (const part of ['crawl_fetch', 'content', 'parse_data', 'parse_text', 'crawl_parse'] as const) assert.ok(await complete(ctx, segment, part), `${part} complete`);
  assert.deepEqual([...await partUrls(ctx, segment, 'crawl_fetch')].sort(), [...generated].sort(), 'crawl_fetch: every URL once');
  assert.deepEqual([...await partUrls(ctx, segment, 'parse_data')].sort(), [...generated].sort(), 'parse_data: every URL once');
  const status = await crawlDbStatus(ctx, join(cwd, 'crawl', 'crawldb'), generated);
  for (const url of generated) assert.equal(status.get(url), CrawlStatus.STATUS_DB_FETCHED, `${url} is db_fetched`);

  // the readdb the operator would run agrees
  const stats = await runNutch(['readdb', 'crawl/crawldb', '-stats'], { cwd });
  assert.match(stats.stdout, new RegExp(`status 2 \\(db_fetched\\):\\t${generated.length}\\n`));
});

test('a second signal stops at once (exit 130) with committed data intact: the re-run finishes the segment', async (t) => {
  const { web, cwd } = await slowWeb(t);
  const env = { NUTCH_CONF_DIR: cwd };
  const first = startNutch(crawlArgv, { cwd, env });
  await waitForRequests(web, 2, first.result);
  first.child.kill('SIGTERM');
  first.child.kill('SIGINT');
  const stopped = await first.result;
  assert.equal(stopped.code, 130, stopped.stderr);
  assert.match(stopped.stderr, /Received SIG(INT|TERM), a second stop signal: stopping at once/);
  assert.equal(stopped.stdout, '', 'no summary: the process ended at once');

  const again = await spawnNutch(crawlArgv, { cwd, env });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /left unfinished by a stopped crawl \(crawl_fetch has no _SUCCESS\)/);
  const ctx = fixtureContext(t, { cwd });
  const segments = await ctx.storage.listSegments(join(cwd, 'crawl', 'segments'));
  assert.equal(segments.length, 1, 'no second segment');
  const generated = await partUrls(ctx, segments[0]!, 'crawl_generate');
  assert.deepEqual([...await partUrls(ctx, segments[0]!, 'parse_data')].sort(), [...generated].sort());
  const status = await crawlDbStatus(ctx, join(cwd, 'crawl', 'crawldb'), generated);
  for (const url of generated) assert.equal(status.get(url), CrawlStatus.STATUS_DB_FETCHED, url);
});

/** Runs a CLI step in-process and asserts it succeeded. */
async function step(cwd: string, argv: string[]): Promise<CliResult> {
  const r = await runNutch([...argv.slice(0, 1), '-D', 'http.agent.name=resume-test', '-Dfetcher.server.delay=0.01', ...argv.slice(1)], { cwd });
  assert.equal(r.code, 0, `${argv.join(' ')}: ${r.stderr}`);
  return r;
}

for (const [done, resumesAt, reason] of [
  [['fetch'], 'parse', 'fetched, but its parse parts have no _SUCCESS'],
  [['fetch', 'parse'], 'updatedb', 'fetched and parsed, but not merged into the CrawlDb'],
] as const) {
  test(`a last segment left after ${done.join(' + ')} is finished from ${resumesAt} on (told by _SUCCESS markers and the CrawlDb), not generated again`, async (t) => {
    const web = await startTestWeb({ hosts: 2, pagesPerHost: 4, linksPerPage: 2, seed: 3 });
    t.after(() => web.close());
    const cwd = tempDir(t);
    writeFileSync(join(cwd, 'seeds.txt'), web.allUrls().join('\n') + '\n');
    await step(cwd, ['inject', 'crawl/crawldb', 'seeds.txt']);
    await step(cwd, ['generate', 'crawl/crawldb', 'crawl/segments']);
    const ctx = fixtureContext(t, { cwd });
    const segmentsDir = join(cwd, 'crawl', 'segments');
    const [segment] = await ctx.storage.listSegments(segmentsDir);
    for (const stage of done) await step(cwd, [stage, segment!]);
    const requests = pageRequests(web);

    const r = await step(cwd, ['crawl', 'crawl', '1']);
    assert.match(r.stderr, new RegExp(`left unfinished by a stopped crawl \\(${reason}\\): finishing it in round 1 \\(${resumesAt}, `));
    assert.equal(r.stderr.includes('fetch (round 1): started'), false, 'not fetched again');
    assert.equal(r.stderr.includes('parse (round 1): started'), resumesAt === 'parse');
    assert.equal(pageRequests(web), requests, 'no page requested again');
    assert.deepEqual(await ctx.storage.listSegments(segmentsDir), [segment], 'no new segment');
    const urls = web.allUrls();
    const status = await crawlDbStatus(ctx, join(cwd, 'crawl', 'crawldb'), urls);
    for (const url of urls) assert.equal(status.get(url), CrawlStatus.STATUS_DB_FETCHED, url);

    // finished now: the next crawl generates (nothing is due, so it stops with nothing to generate)
    const next = await step(cwd, ['crawl', 'crawl', '1']);
    assert.equal(next.stderr.includes('left unfinished'), false, next.stderr);
    assert.match(next.stderr, /generate \(round 1\): started/);
  });
}
