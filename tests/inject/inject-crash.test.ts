import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { inject } from '../../core/crawl/inject/inject.js';
import { createCrawlDatum } from '../../core/model/crawl-datum.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import { logged } from '../helpers/context.js';
import { collect } from '../storage/storage-helpers.js';
import { stageContext } from '../storage/stage-context.js';
import { runUntil } from '../storage/crash-harness.js';
import { storageDefine, storesAreFiles } from '../helpers/test-storage.js';

const SEEDS = Array.from({ length: 1000 }, (_, i) => `http://host${i % 17}.example/page${i}`).join('\n') + '\n';

for (const [name, killAt] of [
  ['the first batch', 'crawldb-put 1'],
  ['the middle', 'crawldb-put 5'],
  ['just before commit', 'crawldb-commit'],
] as const) {
  test(`inject killed (SIGKILL) at ${name}: the previous CrawlDb is intact and a re-run injects everything`, async (t) => {
    const dir = tempDir(t);
    const crawlDb = path.join(dir, 'crawldb');
    const seeds = writeFile(path.join(dir, 'urls', 'seed.txt'), SEEDS);
    const ctx = stageContext(t, { 'storage.batch.size': 100 });
    const db = await ctx.storage.openCrawlDb(crawlDb);
    const up = await db.beginUpdate();
    await up.put(['http://old1/', 'http://old2/', 'http://old3/'].map((url, i) => ({ url, value: createCrawlDatum({ status: 2, score: i }) })));
    await up.commit();
    const before = await collect(db.scan());

    const run = await runUntil(['inject', crawlDb, path.dirname(seeds), ...storageDefine(ctx)], (e) => e === killAt);
    assert.ok(run.killed, `child reached ${killAt}: ${run.events.join(', ')} ${run.stderr}`);
    assert.ok(run.events.filter((e) => e.startsWith('crawldb-put')).length >= 1);

    assert.deepEqual(await collect(db.scan()), before, 'previous CrawlDb readable and unchanged');
    // the embedded engine's lock file outlives its writer (and is broken as stale); PostgreSQL's lock dies with the connection
    if (storesAreFiles()) assert.equal(JSON.parse(fs.readFileSync(path.join(crawlDb, '.locked'), 'utf8')).pid, run.pid, 'the dead writer\'s lock is left behind');

    const counters = await inject(ctx, { crawlDb, urlDir: seeds });
    assert.equal(counters.urls_injected, 1000);
    assert.equal(counters.urls_merged, 0);
    if (storesAreFiles()) assert.match(logged(ctx).join('\n'), new RegExp(`stale lock .*process ${run.pid}`));
    assert.equal(await db.count(), 1003);
    assert.deepEqual(await db.get('http://old2/'), before[1].value);
    await db.close();
  });
}
