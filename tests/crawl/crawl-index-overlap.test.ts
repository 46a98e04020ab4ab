/**
 * crawl.index.overlap: with -i, a round's index and clean run while the next round generates, fetches
 * and parses, and that round's updatedb waits for them; off (the default, or where the CrawlDb is
 * written before the next fetch), bin/crawl's strict sequence. A failed index fails the crawl, never unhandled.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawl } from '../../core/crawl/crawl/crawl.js';
import type { CrawlStages } from '../../core/crawl/crawl/crawl-stages.js';
import { fixtureContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';

type Hooks = { index?: (round: number) => Promise<void> | void; fetch?: (round: number) => void };

/** Stub stages logging `<stage>:<round>` at start and `<stage>:<round>:end` at the end; `rounds` rounds generate a segment. */
function stubStages(log: string[], rounds: number, hooks: Hooks = {}): CrawlStages {
  let generated = 0;
  let round = 0;
  let indexed = 0;
  const stage = (name: string, hook?: (round: number) => Promise<void> | void) => async (_ctx: unknown, a: object) => {
    const args = a as { segments?: string[]; segment?: string };
    // the round a stage works on is in its segment's name (index runs beside the next round); clean's is the last indexed
    const r = name === 'clean' ? indexed : Number((args.segment ?? args.segments?.[0] ?? `seg-${round}`).slice(4));
    if (name === 'index') indexed = r;
    log.push(`${name}:${r}`);
    await hook?.(r);
    log.push(`${name}:${r}:end`);
    return {};
  };
  return {
    inject: stage('inject'),
    generate: async () => {
      generated++;
      round = generated;
      log.push(`generate:${generated}`);
      return { counters: {}, segments: generated <= rounds ? [`seg-${generated}`] : [] };
    },
    fetch: stage('fetch', (r) => hooks.fetch?.(r)),
    parse: stage('parse'),
    updatedb: stage('updatedb'),
    invertlinks: stage('invertlinks'),
    dedup: stage('dedup'),
    index: stage('index', (r) => hooks.index?.(r)),
    clean: stage('clean'),
  };
}

const ON = { 'crawl.index.overlap': 'true' };

function context(t: Parameters<typeof fixtureContext>[0], defines: Record<string, string> = {}) {
  // -i checks its index writers before round 1: the built-in indexer-sqlite must be there
  return fixtureContext(t, { includeBuiltins: true, defines: { 'http.agent.name': 'overlap-test', ...defines } });
}

test('with -i and crawl.index.overlap, round 1 is indexed while round 2 fetches; round 2 merges only after round 1 is cleaned', { timeout: 30_000 }, async (t) => {
  const ctx = context(t, ON);
  const log: string[] = [];
  let fetched2!: () => void;
  const fetch2 = new Promise<void>((resolve) => (fetched2 = resolve));
  // index of round 1 ends only once round 2's fetch has begun: without the overlap this never happens
  const stages = stubStages(log, 3, {
    index: async (r) => {
      if (r === 1) await fetch2;
      // the last round's index outlasts the generate that finds nothing: the crawl must still wait for it
      if (r === 3) for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    },
    fetch: (r) => { if (r === 2) fetched2(); },
  });
  const s = await crawl(ctx, stages, { crawlDir: tempDir(t), rounds: -1, index: true });
  const at = (e: string) => { const i = log.indexOf(e); assert.ok(i >= 0, `${e} ran: ${log.join(' ')}`); return i; };
  assert.ok(at('fetch:2') < at('index:1:end'), 'round 2 fetched while round 1 was being indexed');
  for (const r of [1, 2]) {
    assert.ok(at(`dedup:${r}:end`) < at(`index:${r}`), `round ${r}: index after dedup`);
    assert.ok(at(`index:${r}:end`) < at(`clean:${r}`), `round ${r}: clean after index`);
    assert.ok(at(`clean:${r}:end`) < at(`updatedb:${r + 1}`), `round ${r + 1}'s updatedb waits for round ${r}'s clean`);
    assert.ok(at(`dedup:${r}:end`) < at(`generate:${r + 1}`), `round ${r + 1}'s generate follows round ${r}'s dedup`);
  }
  assert.ok(at('generate:4') < at('index:3:end'), 'the last round is indexed beside the generate that finds nothing');
  assert.equal(log.at(-1), 'clean:3:end', 'the crawl ends after the last clean');
  assert.equal(s.rounds, 3);
  assert.equal(s['rounds.nothing.to.generate'], 1);
});

const STRICT = (rounds: number) => Array.from({ length: rounds }, (_, i) => ['generate', 'fetch', 'parse', 'updatedb', 'invertlinks', 'dedup', 'index', 'clean'].flatMap((st) => st === 'generate' ? [`generate:${i + 1}`] : [`${st}:${i + 1}`, `${st}:${i + 1}:end`])).flat().concat(`generate:${rounds + 1}`);

test('by default, and with generate.update.crawldb or --hostdbupdate, crawl -i keeps bin/crawl\'s strict sequence', async (t) => {
  for (const [defines, args] of [
    [{}, {}],
    [{ ...ON, 'generate.update.crawldb': 'true' }, {}],
    [ON, { hostDbUpdate: true }],
  ] as const) {
    const log: string[] = [];
    // index yields to the event loop a few times: time enough for a wrongly overlapped generate to start
    const stages = stubStages(log, 2, { index: async () => { for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r)); } });
    const dir = tempDir(t);
    await crawl(context(t, defines), stages, { crawlDir: dir, rounds: -1, index: true, ...args });
    assert.deepEqual(log.filter((e) => !e.startsWith('updatehostdb')), STRICT(2), JSON.stringify({ defines, args }));
  }
});

test('without -i nothing overlaps', async (t) => {
  const log: string[] = [];
  await crawl(context(t, ON), stubStages(log, 2), { crawlDir: tempDir(t), rounds: -1 });
  assert.deepEqual(log, STRICT(2).filter((e) => !e.startsWith('index') && !e.startsWith('clean')));
});

test('an index that fails beside the next round fails the crawl with its error; the next round does not merge', async (t) => {
  const log: string[] = [];
  const stages = stubStages(log, 3, { index: (r) => { if (r === 1) throw Object.assign(new Error('index writer broke'), { code: 'NUTCH_TEST_INDEX' }); } });
  await assert.rejects(crawl(context(t, ON), stages, { crawlDir: tempDir(t), rounds: -1, index: true }), { code: 'NUTCH_TEST_INDEX' });
  assert.ok(!log.includes('clean:1'), 'no clean after the failed index');
  assert.ok(!log.includes('updatedb:2'), 'round 2 is not merged');
});
