/**
 * Fixture folders: tests/inject/fixtures/<case>/ holds seeds/ (the url_dir), optional config.json
 * (properties) and existing.json (CrawlDb records before the inject), and expected.json (counters,
 * records by URL — only the fields given are compared — and messages that must be logged).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from '../../core/crawl/inject/inject.js';
import { createCrawlDatum } from '../../core/model/crawl-datum.js';
import { tempDir } from '../helpers/temp-dir.js';
import { collect } from '../storage/storage-helpers.js';
import { stageContext } from '../storage/stage-context.js';

const root = fileURLToPath(new URL('./fixtures', import.meta.url));
const readJson = (file: string) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined);

for (const name of fs.readdirSync(root).sort()) {
  test(`inject fixture: ${name}`, async (t) => {
    const dir = path.join(root, name);
    const expected = readJson(path.join(dir, 'expected.json'));
    const ctx = stageContext(t, readJson(path.join(dir, 'config.json')) ?? {});
    const crawlDb = path.join(tempDir(t), 'crawldb');
    const existing = readJson(path.join(dir, 'existing.json')) as Record<string, object> | undefined;
    if (existing) {
      const db = await ctx.storage.openCrawlDb(crawlDb);
      const up = await db.beginUpdate();
      await up.put(Object.entries(existing).map(([url, d]) => ({ url, value: createCrawlDatum({ status: 1, ...d }) })));
      await up.commit();
      await db.close();
    }
    const counters = await inject(ctx, { crawlDb, urlDir: path.join(dir, 'seeds') });
    for (const [k, v] of Object.entries(expected.counters)) assert.equal(counters[k] ?? 0, v, `counter ${k}`);
    const db = await ctx.storage.openCrawlDb(crawlDb);
    const records = Object.fromEntries((await collect(db.scan())).map((r) => [r.url, r.value]));
    await db.close();
    assert.deepEqual(Object.keys(records), Object.keys(expected.records).sort());
    for (const [url, fields] of Object.entries(expected.records as Record<string, Record<string, unknown>>)) {
      for (const [f, v] of Object.entries(fields)) assert.deepEqual((records[url] as unknown as Record<string, unknown>)[f], v, `${url} ${f}`);
    }
    const log = ctx.log.records.map((r) => r.msg).join('\n');
    for (const m of expected.logged ?? []) assert.ok(log.includes(m), `logged: ${m}`);
  });
}
