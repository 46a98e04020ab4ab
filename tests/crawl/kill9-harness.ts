/**
 * Kill -9 anywhere (issue 18): seeded trials that start a real `nutch crawl` child over the local test
 * web, SIGKILL it after a random delay (so it dies in whichever stage — inject, generate, fetch, parse,
 * updatedb, invertlinks, dedup, index — or between stages), then check every store opens cleanly, run
 * the same crawl again and check that it completes with every seed db_fetched, each seed stored once in
 * its segment's crawl_fetch and parse_data, no page stored before the kill fetched twice, and the index
 * holding every page.
 * tests/crawl/kill9.test.ts runs a few trials; bench/kill9.bench.ts runs 50+. The seed is printed with
 * every failure so that `KILL9_SEED=<seed>` replays it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnNutch, startNutch } from '../helpers/cli.js';
import { createContext } from '../../core/crawl/context.js';
import { silentLogger } from '../../core/log.js';
import { CrawlStatus } from '../../core/model/crawl-datum.js';
import { startTestWeb } from '../web/test-web.js';
import { cliStorageArgs } from '../helpers/test-storage.js';
import { prng } from '../web/web-model.js'; // seeded, so a trial's kill delay replays from its seed


export interface TrialResult {
  seed: number;
  killAfterMs: number;
  /** The child had already finished when the kill came (the delay was longer than the crawl). */
  finishedBeforeKill: boolean;
  storedBeforeKill: number;
}

const crawlArgs = (cwd: string) => ['crawl', '-D', 'http.agent.name=kill9', '-D', 'fetcher.server.delay=0', '-D', 'storage.batch.size=2',
  '-D', 'fetcher.partition.lease=1', '-D', 'parser.worker.threads=1', '-i', '-s', join(cwd, 'seeds.txt'), join(cwd, 'crawl'), '1'];

/** One trial: crawl, SIGKILL after a seeded delay in [0, maxDelayMs), check, resume, check. */
export async function killTrial(seed: number, maxDelayMs: number): Promise<TrialResult> {
  const killAfterMs = Math.floor(prng(seed)() * maxDelayMs);
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 6, linksPerPage: 0, latencyMs: 20, seed });
  const cwd = mkdtempSync(join(tmpdir(), 'nutch-kill9-'));
  try {
    writeFileSync(join(cwd, 'seeds.txt'), web.allUrls().join('\n') + '\n');
    const env = { NUTCH_CONF_DIR: cwd };
    const first = startNutch(crawlArgs(cwd), { cwd, env });
    await new Promise((r) => setTimeout(r, killAfterMs));
    const finished = first.child.exitCode !== null;
    first.child.kill('SIGKILL');
    const killed = await first.result;
    if (finished) assert.equal(killed.code, 0, `seed ${seed}: the crawl ended before the kill, and failed: ${killed.stderr.slice(-2000)}`);

    const stored = await inspect(cwd, web.allUrls(), `seed ${seed}: after the kill at ${killAfterMs} ms`);
    const again = await spawnNutch(crawlArgs(cwd), { cwd, env });
    assert.equal(again.code, 0, `seed ${seed}: the re-run failed: ${again.stderr.slice(-3000)}`);
    const after = await inspect(cwd, web.allUrls(), `seed ${seed}: after the re-run`);
    for (const url of web.allUrls()) {
      assert.equal(after.status.get(url), CrawlStatus.STATUS_DB_FETCHED, `seed ${seed}: ${url} is db_fetched after the re-run`);
      assert.equal(after.fetched.get(url), 1, `seed ${seed}: ${url} stored once in crawl_fetch`);
      assert.equal(after.parsed.get(url), 1, `seed ${seed}: ${url} stored once in parse_data`);
    }
    for (const url of stored.fetched.keys()) {
      const n = web.requestsFor(url).length;
      assert.equal(n, 1, `seed ${seed}: ${url}, stored before the kill, was fetched ${n} times`);
    }
    // every page's title says "page": the index holds every URL, as a clean run's does
    const search = await spawnNutch(['search', join(cwd, 'crawl'), 'page', '-n', '1000', '-json', ...cliStorageArgs(['search'], cwd)], { cwd, env });
    assert.equal(search.code, 0, `seed ${seed}: the index opens: ${search.stderr.slice(-2000)}`);
    const indexed = search.stdout.trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { url: string }).url).sort();
    assert.deepEqual(indexed, [...web.allUrls()].sort(), `seed ${seed}: the index holds every page, as an uninterrupted crawl's`);
    return { seed, killAfterMs, finishedBeforeKill: finished, storedBeforeKill: stored.fetched.size };
  } catch (err) {
    (err as Error).message = `[kill9 seed ${seed}, kill after ${killAfterMs} ms; replay with KILL9_SEED=${seed}] ${(err as Error).message}`;
    throw err;
  } finally {
    await web.close();
    rmSync(cwd, { recursive: true, force: true });
  }
}

interface Inspection {
  status: Map<string, number>;
  fetched: Map<string, number>;
  parsed: Map<string, number>;
}

/** Opens every store the crawl has (each must open and read to its end) and counts what they hold. */
async function inspect(cwd: string, urls: string[], when: string): Promise<Inspection> {
  const ctx = createContext({ cwd, logger: silentLogger, includeBuiltins: true, defines: { 'storage.url': cliStorageArgs(['x'], cwd)[1]?.slice('storage.url='.length) ?? '' } });
  const out: Inspection = { status: new Map(), fetched: new Map(), parsed: new Map() };
  try {
    const db = await ctx.storage.openCrawlDb(join(cwd, 'crawl', 'crawldb'));
    try {
      if (await db.exists()) for (const [u, d] of await db.getMany(urls)) out.status.set(u, d.status);
    } finally {
      await db.close();
    }
    const segments = await ctx.storage.listSegments(join(cwd, 'crawl', 'segments'));
    assert.ok(segments.length <= 1, `${when}: one segment at most (a killed generate publishes none): ${segments.join(', ')}`);
    for (const path of segments) {
      const seg = await ctx.storage.openSegment(path);
      try {
        for (const [part, counts] of [['crawl_fetch', out.fetched], ['parse_data', out.parsed]] as const) {
          if (!(await seg.hasPart(part))) continue;
          for await (const { url } of seg.read(part)) counts.set(url, (counts.get(url) ?? 0) + 1);
        }
      } finally {
        await seg.close();
      }
    }
    for (const [url, n] of out.fetched) assert.equal(n, 1, `${when}: ${url} stored ${n} times in crawl_fetch`);
    return out;
  } finally {
    await ctx.close();
  }
}
