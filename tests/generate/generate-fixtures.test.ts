/**
 * Fixture folders: tests/generate/fixtures/<case>/ holds crawldb.json (records by URL; defaults: due
 * now, db_unfetched; `fetchTimeOffsetDays` moves the fetch time, "NOW" in metadata is replaced by
 * the current time), config.json, args.json (generate's options) and expected.json (counters, the
 * URLs of each segment — sorted unless "order" is true).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSegments } from '../../core/crawl/generate/generate.js';
import { createCrawlDatum } from '../../core/model/crawl-datum.js';
import { tempDir } from '../helpers/temp-dir.js';
import { collect } from '../storage/storage-helpers.js';
import { doublingScoring, stageContext } from '../storage/stage-context.js';

const root = fileURLToPath(new URL('./fixtures', import.meta.url));
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

for (const name of fs.readdirSync(root).sort()) {
  test(`generate fixture: ${name}`, async (t) => {
    const dir = path.join(root, name);
    const expected = readJson(path.join(dir, 'expected.json'));
    const ctx = stageContext(t, readJson(path.join(dir, 'config.json')), [doublingScoring]);
    const work = tempDir(t);
    const crawlDb = path.join(work, 'crawldb');
    const now = Date.now();
    const db = await ctx.storage.openCrawlDb(crawlDb);
    const up = await db.beginUpdate();
    const records = readJson(path.join(dir, 'crawldb.json')) as Record<string, { fetchTimeOffsetDays?: number; metaData?: Record<string, string[]> } & Record<string, unknown>>;
    await up.put(Object.entries(records).map(([url, { fetchTimeOffsetDays, metaData, ...d }]) => ({
      url,
      value: createCrawlDatum({
        status: 1, fetchTime: now - 1000 + (fetchTimeOffsetDays ?? 0) * 86_400_000, ...d,
        metaData: Object.fromEntries(Object.entries(metaData ?? {}).map(([k, v]) => [k, v.map((x) => (x === 'NOW' ? String(now) : x))])),
      }),
    })));
    await up.commit();
    await db.close();
    const { counters, segments } = await generateSegments(ctx, { crawlDb, segmentsDir: path.join(work, 'segments'), ...readJson(path.join(dir, 'args.json')) });
    for (const [k, v] of Object.entries(expected.counters)) assert.equal(counters[k] ?? 0, v, `counter ${k}`);
    const got: string[][] = [];
    for (const s of segments) {
      const seg = await ctx.storage.openSegment(s);
      const urls = (await collect(seg.read('crawl_generate'))).map((r) => r.url);
      got.push(expected.order ? urls : urls.sort());
      await seg.close();
    }
    assert.deepEqual(got, expected.segments);
  });
}
