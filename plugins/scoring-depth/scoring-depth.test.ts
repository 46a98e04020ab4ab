/** DepthScoringFilter, method by method through the real plugin repository, with the cases Nutch's implies. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { CrawlStatus, createContent, createCrawlDatum, createParseData, type CrawlDatum, type ScoringFilter } from '../../sdk/plugin.js';
import { fixtureContext } from '../../tests/helpers/context.js';

type Depth = Required<Pick<ScoringFilter, 'injectedScore' | 'initialScore' | 'generatorSortValue' | 'passScoreBeforeParsing' | 'passScoreAfterParsing' | 'distributeScoreToOutlinks' | 'updateDbScore'>>;

async function depth(t: TestContext, defines: Record<string, string> = {}): Promise<Depth> {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'scoring-depth', ...defines } });
  const ext = ctx.plugins.findExtension('ScoringFilter', 'org.apache.nutch.scoring.depth.DepthScoringFilter');
  assert.equal(ext?.id, 'scoring-depth', 'the Nutch class name is an alias');
  return ctx.plugins.getInstance(ext!) as never;
}

const datum = (meta: Record<string, string> = {}, status: number = CrawlStatus.STATUS_DB_UNFETCHED): CrawlDatum =>
  createCrawlDatum({ status, metaData: Object.fromEntries(Object.entries(meta).map(([k, v]) => [k, [v]])) });
const meta = (d: CrawlDatum) => ({ depth: d.metaData._depth_?.[0], max: d.metaData._maxdepth_?.[0] });

test('scoring-depth: a seed is depth 1 with its own _maxdepth_ or scoring.depth.max', async (t) => {
  const f = await depth(t, { 'scoring.depth.max': '3' });
  for (const [seedMeta, expected] of [
    [{}, { depth: '1', max: '3' }],
    [{ _maxdepth_: '7' }, { depth: '1', max: '7' }],
    [{ _maxdepth_: 'deep' }, { depth: '1', max: '3' }],
  ] as const) {
    const d = datum(seedMeta);
    f.injectedScore('http://seed/', d);
    assert.deepEqual(meta(d), expected, JSON.stringify(seedMeta));
  }
  const zero = await depth(t, { 'scoring.depth.max': '0' });
  const d = datum();
  zero.injectedScore('http://seed/', d);
  assert.equal(meta(d).max, '1000', '0 or less means the default');
});

test('scoring-depth: initialScore keeps values a redirect already carried', async (t) => {
  const f = await depth(t, { 'scoring.depth.max': '4' });
  const fresh = datum({}, CrawlStatus.STATUS_LINKED);
  f.initialScore('http://a/', fresh);
  assert.deepEqual(meta(fresh), { depth: '1', max: '4' });
  const carried = datum({ _depth_: '3', _maxdepth_: '9' }, CrawlStatus.STATUS_LINKED);
  f.initialScore('http://a/', carried);
  assert.deepEqual(meta(carried), { depth: '3', max: '9' });
});

test('scoring-depth: outlinks get depth + 1 and the maximum; at the maximum, or without a depth, none are kept', async (t) => {
  const f = await depth(t, { 'scoring.depth.max': '3' });
  const cases: { name: string; parseMeta: Record<string, string>; kept: { depth: string; max: string | undefined } | null }[] = [
    { name: 'depth 1 of 3', parseMeta: { _depth_: '1', _maxdepth_: '3' }, kept: { depth: '2', max: '3' } },
    { name: 'depth 2 of 3', parseMeta: { _depth_: '2', _maxdepth_: '3' }, kept: { depth: '3', max: '3' } },
    { name: 'depth 3 of 3: the limit', parseMeta: { _depth_: '3', _maxdepth_: '3' }, kept: null },
    { name: "a seed's own larger maximum", parseMeta: { _depth_: '3', _maxdepth_: '5' }, kept: { depth: '4', max: '5' } },
    { name: 'no maximum in the parse: scoring.depth.max', parseMeta: { _depth_: '2' }, kept: { depth: '3', max: undefined } },
    { name: 'no depth: all outlinks removed', parseMeta: {}, kept: null },
  ];
  for (const c of cases) {
    const targets = [{ url: 'http://a/1', datum: datum({}, CrawlStatus.STATUS_LINKED) }, { url: 'http://a/2', datum: datum({}, CrawlStatus.STATUS_LINKED) }];
    const data = createParseData({ parseMeta: Object.fromEntries(Object.entries(c.parseMeta).map(([k, v]) => [k, [v]])) });
    const adjust = f.distributeScoreToOutlinks('http://from/', data, targets, null, 2);
    assert.equal(adjust, null);
    if (!c.kept) assert.equal(targets.length, 0, c.name);
    else assert.deepEqual(targets.map((x) => meta(x.datum)), [c.kept, c.kept], c.name);
  }
});

test('scoring-depth: scoring.depth.override.pattern gives matching pages scoring.depth.max.override', async (t) => {
  const f = await depth(t, { 'scoring.depth.max': '2', 'scoring.depth.override.pattern': '^http://deep\\.example/', 'scoring.depth.max.override': '5' });
  const run = (from: string, d: string) => {
    const targets = [{ url: 'http://x/', datum: datum({}, CrawlStatus.STATUS_LINKED) }];
    f.distributeScoreToOutlinks(from, createParseData({ parseMeta: { _depth_: [d], _maxdepth_: ['9'] } }), targets, null, 1);
    return targets.map((x) => meta(x.datum));
  };
  assert.deepEqual(run('http://deep.example/a', '4'), [{ depth: '5', max: '5' }]);
  assert.deepEqual(run('http://other.example/a', '2'), [], 'not matching: scoring.depth.max, the seed\'s 9 overridden');
  assert.deepEqual(run('http://other.example/a', '1'), [{ depth: '2', max: '2' }]);
});

test('scoring-depth: updateDbScore keeps the shortest path', async (t) => {
  const f = await depth(t);
  const cases: { name: string; old: string | null; inlinks: (string | null)[]; expect: string }[] = [
    { name: 'an inlink from a shallower page', old: '4', inlinks: ['2', '6'], expect: '2' },
    { name: 'the old depth is already the smallest', old: '2', inlinks: ['3'], expect: '2' },
    { name: 'no old datum', old: null, inlinks: ['5', null], expect: '5' },
    { name: 'nothing known: Nutch\'s 1000', old: null, inlinks: [], expect: '1000' },
  ];
  for (const c of cases) {
    const d = datum({}, CrawlStatus.STATUS_DB_FETCHED);
    f.updateDbScore('http://a/', c.old === null ? null : datum({ _depth_: c.old }), d, c.inlinks.map((x) => datum(x === null ? {} : { _depth_: x }, CrawlStatus.STATUS_LINKED)));
    assert.equal(meta(d).depth, c.expect, c.name);
  }
});

test('scoring-depth: generatorSortValue prefers shallow pages; depth travels datum -> content -> parse', async (t) => {
  const f = await depth(t, { 'scoring.depth.max': '10' });
  assert.equal(f.generatorSortValue('http://a/', datum({ _depth_: '1', _maxdepth_: '10' }), 2), 20);
  assert.equal(f.generatorSortValue('http://a/', datum({ _depth_: '10', _maxdepth_: '10' }), 2), 2);
  assert.equal(f.generatorSortValue('http://a/', datum(), 2), 2, 'no depth: as if at the maximum');
  const content = createContent({ url: 'http://a/', content: new Uint8Array(0), contentType: 'text/html' });
  f.passScoreBeforeParsing('http://a/', datum({ _depth_: '3', _maxdepth_: '6' }), content);
  const parse = { text: '', data: createParseData({}), isCanonical: true };
  f.passScoreAfterParsing('http://a/', content, parse as never);
  assert.deepEqual([parse.data.parseMeta._depth_, parse.data.parseMeta._maxdepth_], [['3'], ['6']]);
});

test('scoring-depth in a real crawl: with scoring.depth.max 2 nothing deeper than 2 hops reaches the CrawlDb', async (t) => {
  const { crawledWeb } = await import('../../tests/helpers/crawled-web.js');
  const { readCrawlDb } = await import('../../tests/updatedb/segment-fixtures.js');
  // a chain per host: page 0 links 1, 1 links 2, …; the seed is page 0
  const { cwd } = await crawledWeb(t, { hosts: 1, pagesPerHost: 8, linksPerPage: 1, seed: 3 }, { rounds: 3, config: { 'plugin.includes.add': ['scoring-depth'], 'scoring.depth.max': 2 } });
  const ctx = fixtureContext(t, { includeBuiltins: true });
  const db = await readCrawlDb(ctx.storage, `${cwd}/crawl/crawldb`);
  const depths = [...db.values()].map((d) => Number(d.metaData._depth_?.[0]));
  assert.ok(db.size >= 2, `the seed and its outlinks: ${[...db.keys()].join(' ')}`);
  assert.ok(depths.every((d) => d >= 1 && d <= 2), `depths: ${depths.join(',')}`);
  assert.ok(depths.includes(2));
  const fetched = [...db.values()].filter((d) => d.status === CrawlStatus.STATUS_DB_FETCHED).length;
  assert.equal(fetched, db.size, 'after 3 rounds every page within depth 2 is fetched and nothing else was added');
});
