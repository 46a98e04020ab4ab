import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawl, WORKER_GC_MIN_PAGES } from '../../core/crawl/crawl/crawl.js';
import { createContent } from '../../core/model/content.js';
import type { CrawlStages } from '../../core/crawl/crawl/crawl-stages.js';
import { collectWhenGrown, existingGc, exposeGc } from '../../core/crawl/crawl/collect-garbage.js';
import { fixtureContext } from '../helpers/context.js';
import { parsePoolOf, runningParsePool } from '../../core/parse/parsers.js';
import type { ParsePool } from '../../core/parse/pool.js';
import { tempDir } from '../helpers/temp-dir.js';

test('exposeGc() gives a working gc() without leaving a global gc behind', () => {
  const before = existingGc();
  const gc = exposeGc();
  assert.equal(typeof gc, 'function');
  gc!();
  assert.equal(existingGc(), before, 'the global gc is as it was');
});

function stubStages(ran: string[], rounds: number, onFetch: () => void = () => {}): CrawlStages {
  let generated = 0;
  const stage = (name: string) => async () => {
    ran.push(name);
    return {};
  };
  return {
    inject: stage('inject'),
    generate: async () => {
      ran.push('generate');
      generated++;
      return { counters: {}, segments: generated <= rounds ? [`seg-${generated}`] : [] };
    },
    fetch: async () => {
      ran.push('fetch');
      onFetch();
      return {};
    },
    parse: stage('parse'),
    updatedb: stage('updatedb'),
    invertlinks: stage('invertlinks'),
    dedup: stage('dedup'),
    index: stage('index'),
    clean: stage('clean'),
  };
}

test('the crawl loop collects garbage after every stage it runs', async (t) => {
  // -i checks its index writers before round 1: the built-in indexer-sqlite must be there
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'http.agent.name': 'loop-test' } });
  const ran: string[] = [];
  const stages = stubStages(ran, 1);
  const collected: string[] = [];
  const dir = tempDir(t);
  await crawl(ctx, stages, { crawlDir: dir, seedDir: dir, rounds: -1, index: true }, { collectGarbage: () => collected.push(ran.at(-1)!) });
  assert.deepEqual(ran, ['inject', 'generate', 'fetch', 'parse', 'updatedb', 'invertlinks', 'dedup', 'index', 'clean', 'generate']);
  assert.deepEqual(collected, ran, 'one collection after each stage');
});

test('the crawl loop keeps one parse pool from round to round and ends it with the crawl', async (t) => {
  const ctx = fixtureContext(t, { defines: { 'http.agent.name': 'loop-test' } });
  const pools: ParsePool[] = [];
  const stages = stubStages([], 2, () => pools.push(parsePoolOf(ctx)));
  const dir = tempDir(t);
  const collected: string[] = [];
  await crawl(ctx, stages, { crawlDir: dir, rounds: -1 }, { collectGarbage: () => collected.push('main') });
  assert.equal(pools.length, 2);
  assert.equal(pools[0], pools[1], 'round 2 parses with the workers of round 1');
  await assert.rejects(pools[0]!.parse({ url: 'http://a/', baseUrl: 'http://a/', content: new Uint8Array(), contentType: 'text/html', metadata: {} }), /NUTCH_CLOSED|closed/);
});

test('collectWhenGrown collects only once the heap has grown by the threshold since its last collection', () => {
  assert.equal(collectWhenGrown(undefined), undefined, 'no gc, no collector');
  let collections = 0;
  const minGrowth = 32 * 1024 * 1024;
  const collect = collectWhenGrown(() => collections++, minGrowth)!;
  const held: Buffer[] = [Buffer.alloc(minGrowth)];
  collect();
  assert.equal(collections, 1, 'the first call collects when the heap is that large');
  collect();
  assert.equal(collections, 1, 'nothing grew: no collection');
  held.push(Buffer.alloc(minGrowth / 4));
  collect();
  assert.equal(collections, 1, 'grown by less than the threshold: no collection');
  held.push(Buffer.alloc(minGrowth));
  collect();
  assert.equal(collections, 2, 'grown past the threshold: collected');
  assert.equal(held.length, 3);
});

test('the crawl loop starts the parse workers before a fetch that a parse stage follows, not before an inline-parsing fetch', async (t) => {
  const atFetch = async (fetcherParse: boolean) => {
    const ctx = fixtureContext(t, { defines: { 'http.agent.name': 'loop-test', 'fetcher.parse': String(fetcherParse) } });
    const seen: (number | undefined)[] = [];
    const stages = stubStages([], 1, () => seen.push(runningParsePool(ctx)?.stats.workersStarted));
    await crawl(ctx, stages, { crawlDir: tempDir(t), rounds: -1 });
    return seen;
  };
  const separate = await atFetch(false);
  assert.equal(separate.length, 1);
  assert.ok((separate[0] ?? 0) > 0, 'fetcher.parse=false: the workers were starting when the fetch began');
  assert.deepEqual(await atFetch(true), [undefined], 'fetcher.parse=true: the fetch starts its own parse workers');
});

test('the crawl loop has the parse workers collect garbage after a parse only once they parsed WORKER_GC_MIN_PAGES pages since the last collection', async (t) => {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'http.agent.name': 'loop-test', 'parser.worker.threads': '1' } });
  const perRound = [3, WORKER_GC_MIN_PAGES, 1];
  let round = 0;
  const collectionsAtUpdateDb: number[] = [];
  const stages: CrawlStages = {
    ...stubStages([], perRound.length),
    parse: async () => {
      const pool = parsePoolOf(ctx);
      const n = perRound[round++]!;
      await Promise.all(Array.from({ length: n }, (_, i) => pool.parse(createContent({ url: `http://a.example/${round}/${i}`, contentType: 'text/html', content: new TextEncoder().encode('<title>t</title><a href="/x">x</a>') }))));
      return {};
    },
    updatedb: async () => {
      collectionsAtUpdateDb.push(runningParsePool(ctx)!.stats.collections);
      return {};
    },
  };
  await crawl(ctx, stages, { crawlDir: tempDir(t), rounds: -1 }, { collectGarbage: () => {} });
  assert.deepEqual(collectionsAtUpdateDb, [0, 1, 1], 'none after 3 pages, one after the next 200, none after 1 more');
});
