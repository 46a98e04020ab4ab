/** The crawl loop's account of itself: where a stop hit, and no sums of per-round CrawlDb totals. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawl } from '../../core/crawl/crawl/crawl.js';
import type { CrawlStages } from '../../core/crawl/crawl/crawl-stages.js';
import { fixtureContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';

function stages(ran: string[], onStage: (name: string, round: number) => void = () => {}): CrawlStages {
  let round = 0;
  const stage = (name: string, counters: Record<string, number> = {}) => async () => {
    ran.push(name);
    onStage(name, round);
    return { ...counters };
  };
  return {
    inject: stage('inject'),
    generate: async () => {
      ran.push('generate');
      round++;
      return { counters: { selected: 3 }, segments: [`seg-${round}`] };
    },
    fetch: stage('fetch', { success: 3 }),
    parse: stage('parse'),
    // updatedb's per-status counts describe the whole CrawlDb after the merge, not the round
    updatedb: stage('updatedb', { urls_added: 5, db_fetched: 3 * round + 1, db_unfetched: 9 }),
    invertlinks: stage('invertlinks'),
    dedup: stage('dedup'),
    index: stage('index'),
    clean: stage('clean'),
  };
}

test('a polite stop is reported with its round and stage; the loop starts nothing after it', async (t) => {
  const ctx = fixtureContext(t, { defines: { 'http.agent.name': 'loop-test' } });
  const ac = new AbortController();
  const ran: string[] = [];
  const s = await crawl(ctx, stages(ran, (name, round) => { if (name === 'updatedb' && round === 2) ac.abort(); }), { crawlDir: tempDir(t), rounds: 3 }, { signal: ac.signal });
  assert.deepEqual(ran, ['generate', 'fetch', 'parse', 'updatedb', 'invertlinks', 'dedup', 'generate', 'fetch', 'parse', 'updatedb']);
  assert.equal(s['stopped.by.signal'], 1);
  assert.equal(s['stopped.round'], 2);
  assert.equal(s['stopped.in.updatedb'], 1);
  assert.equal(s['crawldb.total'], undefined, 'no CrawlDb scan after a stop');
});

test('summary: deltas are summed over rounds, updatedb\'s CrawlDb totals are not', async (t) => {
  const ctx = fixtureContext(t, { defines: { 'http.agent.name': 'loop-test' } });
  const s = await crawl(ctx, stages([]), { crawlDir: tempDir(t), rounds: 3 });
  assert.equal(s.rounds, 3);
  assert.equal(s['fetch.success'], 9);
  assert.equal(s['updatedb.urls_added'], 15);
  assert.equal(s['updatedb.db_fetched'], undefined);
  assert.equal(s['updatedb.db_unfetched'], undefined);
  assert.equal(s['stopped.by.signal'], undefined);
});

test('the agent name is checked before the first stage runs', async (t) => {
  const ctx = fixtureContext(t);
  const ran: string[] = [];
  await assert.rejects(crawl(ctx, stages(ran), { crawlDir: tempDir(t), seedDir: tempDir(t), rounds: 1 }), { code: 'NUTCH_CONFIG_MISSING_AGENT' });
  assert.deepEqual(ran, []);
});
