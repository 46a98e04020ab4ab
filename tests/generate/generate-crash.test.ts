import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { generateSegments } from '../../core/crawl/generate/generate.js';
import { createCrawlDatum } from '../../core/model/crawl-datum.js';
import { tempDir } from '../helpers/temp-dir.js';
import { collect } from '../storage/storage-helpers.js';
import { stageContext } from '../storage/stage-context.js';
import { runUntil } from '../storage/crash-harness.js';
import { storageDefine, storesAreFiles } from '../helpers/test-storage.js';

const CONFIG = { 'storage.batch.size': 100, 'generate.update.crawldb': true };

for (const [name, killAt, extraSegments] of [
  ['the first segment batch', 'segment-append 1', 0],
  ['the middle (marking the CrawlDb)', 'crawldb-put 3', 1],
  ['just before the CrawlDb commit', 'crawldb-commit', 1],
] as const) {
  test(`generate killed (SIGKILL) at ${name}: CrawlDb unmarked, at worst an extra complete segment, re-run selects all`, async (t) => {
    const dir = tempDir(t);
    const crawlDb = path.join(dir, 'crawldb');
    const segmentsDir = path.join(dir, 'segments');
    const ctx = stageContext(t, CONFIG);
    const db = await ctx.storage.openCrawlDb(crawlDb);
    const up = await db.beginUpdate();
    await up.put(Array.from({ length: 500 }, (_, i) => ({ url: `http://h${i % 9}.example/${i}`, value: createCrawlDatum({ status: 1, fetchTime: Date.now() - 1000 }) })));
    await up.commit();
    const before = await collect(db.scan());

    const run = await runUntil(['generate', crawlDb, segmentsDir, 'generate.update.crawldb=true', ...storageDefine(ctx)], (e) => e === killAt);
    assert.ok(run.killed, `child reached ${killAt}: ${run.events.join(', ')} ${run.stderr}`);

    assert.deepEqual(await collect(db.scan()), before, 'no generate marks committed');
    const published = await ctx.storage.listSegments(segmentsDir);
    assert.equal(published.length, extraSegments);
    for (const s of published) {
      const seg = await ctx.storage.openSegment(s);
      assert.equal(await seg.isComplete('crawl_generate'), true, 'a published segment is always complete');
      await seg.close();
    }

    const { counters, segments } = await generateSegments(ctx, { crawlDb, segmentsDir });
    assert.equal(counters.selected, 500);
    const seg = await ctx.storage.openSegment(segments[0]);
    assert.equal((await collect(seg.read('crawl_generate'))).length, 500);
    await seg.close();
    assert.equal((await collect(db.scan())).filter((r) => r.value.metaData._ngt_).length, 500);
    if (storesAreFiles()) assert.deepEqual(fs.readdirSync(segmentsDir).filter((n) => n.startsWith('.')), [], 'staging leftovers removed');
    else assert.deepEqual(await ctx.storage.discardStaleStagedSegments(segmentsDir), [], 'staging leftovers removed');
    await db.close();
  });
}
