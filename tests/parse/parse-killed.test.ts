/**
 * `nutch parse` killed -9 after it stored its first batches, then run again (issue 18): the second run
 * must parse the segment whole — not skip it as "already parsed" because the killed run left parse
 * parts without `_SUCCESS` (it did: the segment's unparsed pages never reached the CrawlDb). A parse
 * that finished is still refused (exit 1), as Nutch.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runNutch, startNutch } from '../helpers/cli.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import { testStorageConfig } from '../helpers/test-storage.js';
import { createContext } from '../../core/crawl/context.js';
import { silentLogger } from '../../core/log.js';
import { createContent } from '../../core/model/content.js';

const PAGES = 1500;
const page = (i: number) => `<html><head><title>Page ${i}</title></head><body>${'<p>some text to parse</p>'.repeat(40)}<a href="/p${i + 1}">next</a></body></html>`;

test('nutch parse killed -9 mid-way: the re-run parses the whole segment (its unfinished parts replaced), each page once; a finished parse is refused', { timeout: 180_000 }, async (t) => {
  const cwd = tempDir(t);
  writeFile(join(cwd, 'nutch-site.json'), { 'http.agent.name': 'nutch-ts-test', 'plugin.includes': 'parse-html', 'parser.worker.threads': 1, 'storage.batch.size': 5 });
  const ctx = createContext({ cwd, env: { NUTCH_CONF_DIR: cwd }, logger: silentLogger, config: testStorageConfig(cwd) });
  t.after(() => ctx.close());
  const seg = await ctx.storage.createSegment(join(cwd, 'crawl', 'segments'), '20260102030405');
  const w = await seg.openWriter('content', 0, { totalPartitions: 1 });
  const metadata = { _fst_: ['33'] }; // fetch_success, as the fetcher records it
  const urls = Array.from({ length: PAGES }, (_, i) => `http://a.example/p${i}`);
  await w.append(urls.map((url, i) => ({ url, value: createContent({ url, contentType: 'text/html', content: new TextEncoder().encode(page(i)), metadata }) })));
  await w.finish();
  await w.close();
  await seg.close();

  const killed = startNutch(['parse', seg.path], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  // the stores are read through a handle opened for each look: the re-run replaces the parse parts
  const look = async <T>(fn: (s: typeof seg) => Promise<T>): Promise<T> => {
    const s = await ctx.storage.openSegment(seg.path);
    try {
      return await fn(s);
    } finally {
      await s.close();
    }
  };
  let stored = 0;
  while (killed.child.exitCode === null && stored === 0) {
    stored = await look((s) => s.count('parse_data'));
    if (stored === 0) await sleep(10);
  }
  killed.child.kill('SIGKILL');
  const first = await killed.result;
  assert.ok(stored > 0 && stored < PAGES && !(await look((s) => s.isComplete('parse_data'))), `the kill landed mid-parse (${stored} of ${PAGES} stored; exit ${first.code}: ${first.stderr.slice(-1000)})`);

  const again = await runNutch(['parse', seg.path], { cwd });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /unfinished parse .*parsing it again/);
  const { parsed, records } = await look(async (s) => {
    for (const part of ['parse_data', 'parse_text', 'crawl_parse'] as const) assert.ok(await s.isComplete(part), `${part} is complete`);
    const parsed: string[] = [];
    for await (const { url } of s.read('parse_data')) parsed.push(url);
    const records: string[] = [];
    for await (const { url, value } of s.read('crawl_parse')) records.push(`${url} ${value.status}`);
    return { parsed, records };
  });
  assert.equal(parsed.length, PAGES, 'every page parsed once');
  assert.deepEqual(parsed.sort(), [...urls].sort(), 'every page parsed once');
  assert.equal(new Set(records).size, records.length, 'no crawl_parse record twice (none left over from the killed run)');
  for (let i = 0; i < PAGES; i++) assert.ok(records.some((r) => r.startsWith(`http://a.example/p${i + 1} `)), `the outlink of page ${i} is in crawl_parse`);

  const third = await runNutch(['parse', seg.path], { cwd });
  assert.equal(third.code, 1, 'a finished parse is refused, as Nutch');
  assert.match(third.stderr, /already parsed/);
});
