/** mergedb, mergesegs and mergelinkdb through the real CLI, on two real crawls of the test web. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { spawnNutch } from '../helpers/cli.js';
import { crawlInto } from '../helpers/crawled-web.js';
import { fixtureContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestWeb, type TestWeb } from '../web/test-web.js';
import type { CrawlDatum } from '../../core/model/crawl-datum.js';

let web: TestWeb;
let cwd: string;

before(async () => {
  web = await startTestWeb({ hosts: 3, pagesPerHost: 6, linksPerPage: 3, externalLinkRatio: 0, seed: 11 });
  cwd = tempDir();
  // crawl A: host 0 only; crawl B, later: hosts 0 and 2, so host 0's home page is in both, newer in B
  const config = { 'linkdb.ignore.internal.links': false };
  await crawlInto(cwd, [web.seeds[0]!], { crawlDir: 'a', rounds: 1, config });
  await crawlInto(cwd, [web.seeds[0]!, web.seeds[2]!], { crawlDir: 'b', rounds: 2, config });
});

after(async () => {
  await web.close();
  rmSync(cwd, { recursive: true, force: true });
});

const nutch = (argv: string[]) => spawnNutch(argv, { cwd, env: { NUTCH_CONF_DIR: cwd } });

async function readCrawlDb(t: Parameters<typeof fixtureContext>[0], path: string): Promise<Map<string, CrawlDatum>> {
  const ctx = fixtureContext(t, { cwd });
  const db = await ctx.storage.openCrawlDb(join(cwd, path));
  const out = new Map<string, CrawlDatum>();
  try {
    for await (const { url, value } of db.scan()) out.set(url, value);
  } finally {
    await db.close();
  }
  return out;
}

test('mergedb: the union of two crawls, the newer datum winning for a URL in both', async (t) => {
  const a = await readCrawlDb(t, 'a/crawldb');
  const b = await readCrawlDb(t, 'b/crawldb');
  const r = await nutch(['mergedb', 'merged/crawldb', 'a/crawldb', 'b/crawldb']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^CrawlDbMerger:/);
  const merged = await readCrawlDb(t, 'merged/crawldb');
  assert.deepEqual([...merged.keys()].sort(), [...new Set([...a.keys(), ...b.keys()])].sort());
  const home = web.seeds[0]!;
  assert.ok(a.has(home) && b.has(home));
  assert.ok(b.get(home)!.fetchTime > a.get(home)!.fetchTime);
  assert.deepEqual(merged.get(home), b.get(home));
  for (const [url, d] of a) if (!b.has(url)) assert.deepEqual(merged.get(url), d, url);

  // -filter drops what the URL filters reject; the output is replaced, not added to
  const rules = join(cwd, 'regex-urlfilter.txt');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(rules, `-^http://${web.hosts[2]!.replace(/\./g, '\\.')}/\n+.\n`);
  const f = await nutch(['mergedb', 'merged/crawldb', 'a/crawldb', 'b/crawldb', '-filter', '-D', `urlfilter.regex.file=${rules}`]);
  assert.equal(f.code, 0, f.stderr);
  const filtered = await readCrawlDb(t, 'merged/crawldb');
  assert.ok(filtered.size > 0);
  for (const url of filtered.keys()) assert.ok(!url.includes(web.hosts[2]!), url);
  assert.equal(filtered.size, [...merged.keys()].filter((u) => !u.includes(web.hosts[2]!)).length);
});

test('mergedb with a missing input names it', async () => {
  const r = await nutch(['mergedb', 'out', 'a/crawldb', 'nowhere/crawldb']);
  assert.equal(r.code, 3);
  assert.match(r.stderr, /NUTCH_STORAGE_NOT_FOUND: CrawlDb .*nowhere\/crawldb does not exist/);
});

/** Bytes as hex, so a Buffer and a Uint8Array of the same bytes compare equal. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, function (this: Record<string, unknown>, k: string, v: unknown) {
    const raw = this[k];
    return raw instanceof Uint8Array ? `bytes:${Buffer.from(raw).toString('hex')}` : v;
  }));
}

async function readSegments(t: Parameters<typeof fixtureContext>[0], segmentsDir: string) {
  const ctx = fixtureContext(t, { cwd });
  const out: { name: string; parts: Map<string, Map<string, unknown[]>> }[] = [];
  for (const path of await ctx.storage.listSegments(join(cwd, segmentsDir))) {
    const seg = await ctx.storage.openSegment(path);
    const parts = new Map<string, Map<string, unknown[]>>();
    for (const part of ['crawl_generate', 'crawl_fetch', 'content', 'parse_data', 'parse_text', 'crawl_parse'] as const) {
      const m = new Map<string, unknown[]>();
      for await (const { url, value } of seg.read(part)) m.set(url, [...(m.get(url) ?? []), plain(value)]);
      parts.set(part, m);
    }
    out.push({ name: seg.name, parts });
    await seg.close();
  }
  return out;
}

test('mergesegs: one segment holding every URL of both crawls, the newest segment winning; -slice splits it', async (t) => {
  const inputs = [...(await readSegments(t, 'a/segments')), ...(await readSegments(t, 'b/segments'))].sort((x, y) => x.name.localeCompare(y.name));
  assert.equal(inputs.length, 3);
  const r = await nutch(['mergesegs', 'merged/segments', '-dir', 'a/segments', '-dir', 'b/segments']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^SegmentMerger:[\s\S]*Merged segment: .*merged\/segments\/\d{14}$/m);
  const [merged, ...more] = await readSegments(t, 'merged/segments');
  assert.equal(more.length, 0);
  const allUrls = new Set<string>();
  for (const part of merged!.parts.keys()) {
    const expected = new Map<string, unknown[]>();
    for (const seg of inputs) for (const [url, recs] of seg.parts.get(part)!) expected.set(url, recs); // later (newer) wins
    for (const url of expected.keys()) allUrls.add(url);
    assert.deepEqual(merged!.parts.get(part), expected, part);
  }
  // host 0's home page was fetched by both crawls: the merged fetch is crawl B's
  const home = web.seeds[0]!;
  const fetches = inputs.filter((s) => s.parts.get('crawl_fetch')!.has(home));
  assert.ok(fetches.length >= 2);
  assert.deepEqual(merged!.parts.get('crawl_fetch')!.get(home), fetches.at(-1)!.parts.get('crawl_fetch')!.get(home));

  const list = await nutch(['readseg', '-list', '-dir', 'merged/segments']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /\n\d{14}\t\d+/);

  const sliced = await nutch(['mergesegs', 'sliced', '-dir', 'a/segments', '-dir', 'b/segments', '-slice', '4']);
  assert.equal(sliced.code, 0, sliced.stderr);
  const slices = await readSegments(t, 'sliced');
  assert.equal(slices.length, Math.ceil(allUrls.size / 4));
  const seen = new Set<string>();
  for (const s of slices) {
    const urls = new Set<string>();
    for (const m of s.parts.values()) for (const u of m.keys()) urls.add(u);
    assert.ok(urls.size <= 4);
    for (const u of urls) {
      assert.ok(!seen.has(u), `${u} in two slices`);
      seen.add(u);
    }
  }
  assert.deepEqual(seen, allUrls);
});

async function readLinkDb(t: Parameters<typeof fixtureContext>[0], path: string): Promise<Map<string, { fromUrl: string; anchor: string }[]>> {
  const ctx = fixtureContext(t, { cwd });
  const db = await ctx.storage.openLinkDb(join(cwd, path));
  const out = new Map<string, { fromUrl: string; anchor: string }[]>();
  try {
    for await (const { url, value } of db.scan()) out.set(url, value.inlinks);
  } finally {
    await db.close();
  }
  return out;
}

test('mergelinkdb: the inlinks of both crawls, distinct; -filter drops rejected targets and sources', async (t) => {
  const a = await readLinkDb(t, 'a/linkdb');
  const b = await readLinkDb(t, 'b/linkdb');
  assert.ok(a.size > 0 && b.size > 0, 'both crawls inverted links');
  const r = await nutch(['mergelinkdb', 'merged/linkdb', 'a/linkdb', 'b/linkdb']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^LinkDbMerger:/);
  const merged = await readLinkDb(t, 'merged/linkdb');
  const expected = new Map<string, { fromUrl: string; anchor: string }[]>();
  for (const db of [a, b]) {
    for (const [url, links] of db) {
      const list = expected.get(url) ?? [];
      for (const l of links) if (!list.some((x) => x.fromUrl === l.fromUrl && x.anchor === l.anchor)) list.push(l);
      expected.set(url, list);
    }
  }
  assert.deepEqual(merged, expected);

  const rules = join(cwd, 'regex-urlfilter-linkdb.txt');
  const { writeFileSync } = await import('node:fs');
  // reject page 1 of host 0 wherever it appears: as a key and as an inlink's source
  const page1 = `http://${web.hosts[0]!}/page/1.html`;
  writeFileSync(rules, `-^${page1.replace(/[.]/g, '\\.')}$\n+.\n`);
  const f = await nutch(['mergelinkdb', 'merged/linkdb', 'a/linkdb', 'b/linkdb', '-filter', '-D', `urlfilter.regex.file=${rules}`]);
  assert.equal(f.code, 0, f.stderr);
  const filtered = await readLinkDb(t, 'merged/linkdb');
  assert.ok(!filtered.has(page1));
  for (const links of filtered.values()) for (const l of links) assert.notEqual(l.fromUrl, page1);
  assert.ok([...expected.values()].some((links) => links.some((l) => l.fromUrl === page1)) || expected.has(page1), 'the filter had something to drop');
});
