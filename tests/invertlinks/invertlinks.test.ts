/** invertlinks and readlinkdb over real segments and a real LinkDb. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { invertlinks, mergeInlinks } from '../../core/crawl/invertlinks/invertlinks.js';
import { readlinkdb } from '../../core/crawl/readlinkdb/readlinkdb.js';
import type { Inlinks } from '../../core/model/inlinks.js';
import { fixtureContext, logged } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runNutch } from '../helpers/cli.js';
import { writeSegment, type FetchedPage } from '../updatedb/segment-fixtures.js';

function setup(t: TestContext, defines: Record<string, string> = {}, extra: Parameters<typeof fixtureContext>[1] = {}) {
  const dir = tempDir(t);
  const ctx = fixtureContext(t, { includeBuiltins: true, defines, ...extra });
  return { dir, ctx, linkDb: path.join(dir, 'linkdb'), segmentsDir: path.join(dir, 'segments') };
}

async function readLinkDb(ctx: ReturnType<typeof setup>['ctx'], dir: string): Promise<Map<string, Inlinks>> {
  const db = await ctx.storage.openLinkDb(dir);
  const out = new Map<string, Inlinks>();
  for await (const { url, value } of db.scan()) out.set(url, value);
  await db.close();
  return out;
}

const pages: FetchedPage[] = [
  { url: 'http://a.example/', outlinks: { 'http://b.example/': 1, 'http://a.example/internal': 1, 'http://c.example/': 1 }, anchors: { 'http://b.example/': 'to b', 'http://c.example/': 'C' } },
  { url: 'http://d.example/', outlinks: { 'http://b.example/': 1 }, anchors: { 'http://b.example/': 'bee' } },
];

test('invertlinks turns outlinks into inlinks with anchors; internal links ignored by default', async (t) => {
  const { ctx, linkDb, segmentsDir } = setup(t);
  const seg = await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages });
  const counters = await invertlinks(ctx, { linkDb, segments: [seg] });
  const db = await readLinkDb(ctx, linkDb);
  assert.deepEqual([...db.keys()], ['http://b.example/', 'http://c.example/']);
  assert.deepEqual(db.get('http://b.example/')!.inlinks, [{ fromUrl: 'http://a.example/', anchor: 'to b' }, { fromUrl: 'http://d.example/', anchor: 'bee' }]);
  assert.deepEqual(db.get('http://c.example/')!.inlinks, [{ fromUrl: 'http://a.example/', anchor: 'C' }]);
  assert.equal(counters.links_ignored, 1);
  assert.equal(counters.links_inverted, 3);
});

test('invertlinks with linkdb.ignore.internal.links=false keeps internal links; ignore.external keeps only them', async (t) => {
  const a = setup(t, { 'linkdb.ignore.internal.links': 'false' });
  await invertlinks(a.ctx, { linkDb: a.linkDb, segments: [await writeSegment(a.ctx.storage, a.segmentsDir, '20240101000000', { pages })] });
  assert.deepEqual([...(await readLinkDb(a.ctx, a.linkDb)).keys()], ['http://a.example/internal', 'http://b.example/', 'http://c.example/']);
  const b = setup(t, { 'linkdb.ignore.internal.links': 'false', 'linkdb.ignore.external.links': 'true' });
  await invertlinks(b.ctx, { linkDb: b.linkDb, segments: [await writeSegment(b.ctx.storage, b.segmentsDir, '20240101000000', { pages })] });
  assert.deepEqual([...(await readLinkDb(b.ctx, b.linkDb)).keys()], ['http://a.example/internal']);
});

test('invertlinks cuts anchors to db.max.anchor.length and keeps at most linkdb.max.inlinks', async (t) => {
  const { ctx, linkDb, segmentsDir } = setup(t, { 'db.max.anchor.length': '4', 'linkdb.max.inlinks': '2' });
  const many = ['p', 'q', 'r'].map((h) => ({ url: `http://${h}.example/`, outlinks: { 'http://t.example/': 1 }, anchors: { 'http://t.example/': `anchor from ${h}` } }));
  await invertlinks(ctx, { linkDb, segments: [await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages: many })] });
  assert.deepEqual((await readLinkDb(ctx, linkDb)).get('http://t.example/')!.inlinks, [{ fromUrl: 'http://p.example/', anchor: 'anch' }, { fromUrl: 'http://q.example/', anchor: 'anch' }]);
});

test('invertlinks merges with the existing LinkDb: old inlinks first, no duplicate pairs', async (t) => {
  const { ctx, linkDb, segmentsDir } = setup(t);
  const s1 = await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages: [pages[0]!] });
  const s2 = await writeSegment(ctx.storage, segmentsDir, '20240102000000', { pages });
  await invertlinks(ctx, { linkDb, segments: [s1] });
  await invertlinks(ctx, { linkDb, segments: [s2] });
  const db = await readLinkDb(ctx, linkDb);
  assert.deepEqual(db.get('http://b.example/')!.inlinks, [{ fromUrl: 'http://a.example/', anchor: 'to b' }, { fromUrl: 'http://d.example/', anchor: 'bee' }]);
  assert.deepEqual(mergeInlinks([{ fromUrl: 'x', anchor: '' }], [{ fromUrl: 'x', anchor: '' }, { fromUrl: 'x', anchor: 'y' }], 10).inlinks.length, 2);
});

test('invertlinks filters and normalises link URLs unless -noFilter / -noNormalize', async (t) => {
  const filter = { id: 'test-filter', extensions: [{ point: 'URLFilter' as const, implementation: { filter: (u: string) => (u.includes('c.example') ? null : u) } }] };
  for (const noFilter of [false, true]) {
    const { ctx, linkDb, segmentsDir } = setup(t, {}, { plugins: [filter] });
    await invertlinks(ctx, { linkDb, segments: [await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages })], noFilter });
    assert.equal((await readLinkDb(ctx, linkDb)).has('http://c.example/'), noFilter);
  }
});

test('invertlinks skips a segment whose parse_data is incomplete, naming it', async (t) => {
  const { ctx, linkDb, segmentsDir } = setup(t);
  const bad = await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages, incomplete: ['parse_data'] });
  const counters = await invertlinks(ctx, { linkDb, segments: [bad] });
  assert.equal(counters.segments_skipped, 1);
  assert.ok(logged(ctx).some((m) => m.includes(path.join(bad, 'parse_data'))));
  assert.equal(await (await ctx.storage.openLinkDb(linkDb)).exists?.(), false, 'no LinkDb written');
});

test('readlinkdb -dump writes Nutch\'s text layout (and JSON), -regex filters, -url prints one URL', async (t) => {
  const { dir, ctx, linkDb, segmentsDir } = setup(t);
  await invertlinks(ctx, { linkDb, segments: [await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages })] });
  const out = path.join(dir, 'dump');
  const counters = await readlinkdb(ctx, { linkDb, dump: out });
  assert.deepEqual(counters, { urls: 2, inlinks: 3 });
  assert.equal(fs.readFileSync(path.join(out, 'part-00000'), 'utf8'),
    'http://b.example/\tInlinks:\n fromUrl: http://a.example/ anchor: to b\n fromUrl: http://d.example/ anchor: bee\n\n'
    + 'http://c.example/\tInlinks:\n fromUrl: http://a.example/ anchor: C\n\n');
  await readlinkdb(ctx, { linkDb, dump: path.join(dir, 'json'), regex: 'c\\.example', format: 'json' });
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, 'json', 'part-00000'), 'utf8')), { url: 'http://c.example/', inlinks: [{ fromUrl: 'http://a.example/', anchor: 'C' }] });
  const lines: string[] = [];
  await readlinkdb(ctx, { linkDb, url: 'http://b.example/', write: (l) => lines.push(l) });
  assert.deepEqual(lines, ['fromUrl: http://a.example/ anchor: to b', 'fromUrl: http://d.example/ anchor: bee']);
  lines.length = 0;
  await readlinkdb(ctx, { linkDb, url: 'http://nowhere.example/', write: (l) => lines.push(l) });
  assert.deepEqual(lines, [' - no link information.']);
  await assert.rejects(readlinkdb(ctx, { linkDb, dump: out }), /already exists/);
  await assert.rejects(readlinkdb(ctx, { linkDb, dump: path.join(dir, 'x'), regex: '(' }), /does not compile/);
  await assert.rejects(readlinkdb(ctx, { linkDb: path.join(dir, 'nolinkdb'), url: 'http://b.example/' }), (e: { code?: string }) => e.code === 'NUTCH_STORAGE_NOT_FOUND');
});

test('CLI: nutch invertlinks -dir, then nutch readlinkdb -url', async (t) => {
  // the context works in the CLI's directory, so both name the stores alike on every engine
  const dir = tempDir(t);
  const { ctx } = setup(t, {}, { cwd: dir });
  await writeSegment(ctx.storage, path.join(dir, 'segments'), '20240101000000', { pages });
  const inv = await runNutch(['invertlinks', 'crawl/linkdb', '-dir', 'segments'], { cwd: dir });
  assert.equal(inv.code, 0, inv.stderr);
  assert.match(inv.stdout, /links_inverted=3/);
  const read = await runNutch(['readlinkdb', 'crawl/linkdb', '-url', 'http://c.example/'], { cwd: dir });
  assert.equal(read.code, 0, read.stderr);
  assert.equal(read.stdout, 'fromUrl: http://a.example/ anchor: C\n');
  const bad = await runNutch(['invertlinks', 'crawl/linkdb'], { cwd: dir });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /No segments given/);
  const usage = await runNutch(['readlinkdb', 'crawl/linkdb'], { cwd: dir });
  assert.equal(usage.code, 2);
});
