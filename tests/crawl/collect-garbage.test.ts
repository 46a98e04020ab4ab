import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawl } from '../../core/crawl/crawl/crawl.js';
import type { CrawlStages } from '../../core/crawl/crawl/crawl-stages.js';
import { existingGc, exposeGc } from '../../core/crawl/crawl/collect-garbage.js';
import { fixtureContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';

test('exposeGc() gives a working gc() without leaving a global gc behind', () => {
  const before = existingGc();
  const gc = exposeGc();
  assert.equal(typeof gc, 'function');
  gc!();
  assert.equal(existingGc(), before, 'the global gc is as it was');
});

test('the crawl loop collects garbage after every stage it runs', async (t) => {
  const ctx = fixtureContext(t);
  const ran: string[] = [];
  let generated = 0;
  const stage = (name: string) => async () => {
    ran.push(name);
    return {};
  };
  const stages: CrawlStages = {
    inject: stage('inject'),
    generate: async () => {
      ran.push('generate');
      return { counters: {}, segments: generated++ === 0 ? ['seg-1'] : [] };
    },
    fetch: stage('fetch'),
    parse: stage('parse'),
    updatedb: stage('updatedb'),
    invertlinks: stage('invertlinks'),
    dedup: stage('dedup'),
    index: stage('index'),
    clean: stage('clean'),
  };
  const collected: string[] = [];
  const dir = tempDir(t);
  await crawl(ctx, stages, { crawlDir: dir, seedDir: dir, rounds: -1, index: true }, { collectGarbage: () => collected.push(ran.at(-1)!) });
  assert.deepEqual(ran, ['inject', 'generate', 'fetch', 'parse', 'updatedb', 'invertlinks', 'dedup', 'index', 'clean', 'generate']);
  assert.deepEqual(collected, ran, 'one collection after each stage');
});
