/**
 * Acceptance (issue 6): after a crawl of the local test web — inject, then rounds of generate, fetch,
 * parse, updatedb, invertlinks — `nutch index` and `nutch search` find a page by a phrase the test web
 * put only in that page (its title), and the anchors of the links other pages put to it are in its
 * document. Default plugin.includes (protocol-http, parse-html, index-basic/anchor, indexer-sqlite, …).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestWeb } from '../web/test-web.js';
import { fixtureContext } from '../helpers/context.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import { runNutch } from '../helpers/cli.js';
import { inject } from '../../core/crawl/inject/inject.js';
import { generateSegments } from '../../core/crawl/generate/generate.js';
import { fetch } from '../../core/crawl/fetch/fetcher.js';
import { parse } from '../../core/crawl/parse/parse-segment.js';
import { updatedb } from '../../core/crawl/updatedb/updatedb.js';
import { invertlinks } from '../../core/crawl/invertlinks/invertlinks.js';
import defaults from '../../conf/nutch-default.json' with { type: 'json' };

test('crawl the test web, index, then search finds a page by its unique phrase with the anchors of its inlinks', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 8, linksPerPage: 6, pageBytes: 2048 });
  t.after(() => web.close());
  const dir = tempDir(t);
  const site = {
    'http.agent.name': 'nutch-ts-test', 'fetcher.server.delay': 0, 'fetcher.server.min.delay': 0, 'db.ignore.internal.links': false, 'linkdb.ignore.internal.links': false,
    'parser.worker.threads': 1,
    // The default plugin.includes, plus indexer-jsonl to look at the documents.
    'plugin.includes': `${(defaults.properties['plugin.includes'] as { default: string }).default}|indexer-jsonl`,
  };
  writeFile(join(dir, 'nutch-site.json'), site);
  writeFile(join(dir, 'index-writers.json'), { writers: [
    { id: 'indexer_sqlite_1', extension: 'indexer-sqlite' },
    { id: 'jsonl_1', extension: 'indexer-jsonl', parameters: { path: join(dir, 'docs.jsonl'), mode: 'overwrite' } },
  ] });
  writeFile(join(dir, 'seeds', 'seed.txt'), web.seeds.join('\n') + '\n');
  const ctx = fixtureContext(t, { includeBuiltins: true, cwd: dir });
  const crawlDb = join(dir, 'crawl', 'crawldb');
  const linkDb = join(dir, 'crawl', 'linkdb');
  const segmentsDir = join(dir, 'crawl', 'segments');
  await inject(ctx, { crawlDb, urlDir: join(dir, 'seeds') });
  const segments: string[] = [];
  for (let round = 0; round < 4; round++) {
    const gen = await generateSegments(ctx, { crawlDb, segmentsDir });
    if (!gen.segments.length) break;
    for (const segment of gen.segments) {
      await fetch(ctx, { segment });
      await parse(ctx, { segment });
      segments.push(segment);
    }
    await updatedb(ctx, { crawlDb, segments: gen.segments });
    await invertlinks(ctx, { linkDb, segments: gen.segments });
  }
  await ctx.close();
  assert.ok(segments.length >= 2);

  const r = await runNutch(['index', 'crawl/crawldb', '-linkdb', 'crawl/linkdb', '-dir', 'crawl/segments'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const target = web.url(1, '/page/3.html');
  const s = await runNutch(['search', 'crawl', '"Host 1 page 3"', '-json'], { cwd: dir });
  assert.equal(s.code, 0, s.stderr);
  const hits = s.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  assert.equal(hits[0]?.url, target, s.stdout);
  assert.equal(hits[0]?.title, 'Host 1 page 3');
  assert.equal(hits.length, 1, 'the phrase is in that page only');

  // Anchors: every fetched page the test web linked to the target from contributes its anchor text.
  const docs = readFileSync(join(dir, 'docs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((d) => d.action === 'add');
  const indexed = new Set(docs.map((d) => d.id as string));
  const doc = docs.find((d) => d.id === target);
  assert.ok(doc, 'target page indexed');
  const linkers = [...indexed].filter((u) => u !== target && web.linksOf(u).includes(target));
  assert.ok(linkers.length > 0, 'some indexed page links to the target');
  const anchors: string[] = doc.fields.anchor ?? [];
  assert.ok(anchors.length > 0, 'anchors are in the document');
  for (const a of anchors) assert.match(a, /^link \d+ to \/page\/3\.html$/);
});
