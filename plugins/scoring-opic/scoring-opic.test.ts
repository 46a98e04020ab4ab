/** OPICScoringFilter, method by method, through the real plugin repository. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { CrawlStatus, createCrawlDatum, createContent, createParseData, type CrawlDatum, type ScoringFilter } from '../../sdk/plugin.js';
import { fixtureContext } from '../../tests/helpers/context.js';
import type { NutchDocument } from '../../core/model/nutch-document.js';

async function opic(t: TestContext, defines: Record<string, string> = {}): Promise<ScoringFilter & Required<Pick<ScoringFilter, 'distributeScoreToOutlinks'>>> {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'scoring-opic', ...defines } });
  const ext = ctx.plugins.findExtension('ScoringFilter', 'org.apache.nutch.scoring.opic.OPICScoringFilter');
  assert.ok(ext, 'the Nutch class name is an alias');
  assert.equal(ext.id, 'scoring-opic');
  return ctx.plugins.getInstance(ext) as never;
}

const datum = (score: number, status: number = CrawlStatus.STATUS_DB_FETCHED): CrawlDatum => createCrawlDatum({ status, score });
const target = (url: string) => ({ url, datum: datum(0, CrawlStatus.STATUS_LINKED) });

test('OPIC injectedScore leaves the injector\'s db.score.injected alone', async (t) => {
  const f = await opic(t);
  const d = datum(0.7);
  f.injectedScore!('http://a/', d);
  assert.equal(d.score, 0.7);
});

test('OPIC initialScore is 0', async (t) => {
  const f = await opic(t);
  const d = datum(0.7, CrawlStatus.STATUS_LINKED);
  f.initialScore!('http://a/', d);
  assert.equal(d.score, 0);
});

test('OPIC generatorSortValue = score x initSort', async (t) => {
  const f = await opic(t);
  assert.equal(f.generatorSortValue!('http://a/', datum(2.5), 2), 5);
});

const updateCases: { name: string; old: number | null; datum: number; inlinks: number[]; expect: number }[] = [
  { name: 'old score + sum of inlinks', old: 1, datum: 9, inlinks: [0.5, 0.25], expect: 1.75 },
  { name: 'no old datum: the datum\'s own score + inlinks', old: null, datum: 0, inlinks: [0.5, 0.5], expect: 1 },
  { name: 'no inlinks: the old score', old: 3, datum: 0, inlinks: [], expect: 3 },
];
for (const c of updateCases) {
  test(`OPIC updateDbScore: ${c.name}`, async (t) => {
    const f = await opic(t);
    const d = datum(c.datum);
    f.updateDbScore!('http://a/', c.old === null ? null : datum(c.old), d, c.inlinks.map((s) => datum(s, CrawlStatus.STATUS_LINKED)));
    assert.equal(d.score, c.expect);
  });
}

test('OPIC passes the score through content metadata into the parse data', async (t) => {
  const f = await opic(t);
  const content = createContent({ url: 'http://a/' });
  f.passScoreBeforeParsing!('http://a/', datum(0.375), content);
  assert.deepEqual(content.metadata['nutch.crawl.score'], ['0.375']);
  const parse = { text: '', data: createParseData(), isCanonical: true };
  f.passScoreAfterParsing!('http://a/', content, parse);
  assert.deepEqual(parse.data.contentMeta['nutch.crawl.score'], ['0.375']);
});

const distributeCases: { name: string; defines?: Record<string, string>; score?: string; targets: string[]; allCount: number; expect: number[] }[] = [
  { name: 'score divided among the kept outlinks', score: '1', targets: ['http://a.example/x', 'http://b.example/y', 'http://c.example/z', 'http://d.example/w'], allCount: 10, expect: [0.25, 0.25, 0.25, 0.25] },
  { name: 'db.score.count.filtered divides by all outlinks', defines: { 'db.score.count.filtered': 'true' }, score: '1', targets: ['http://a.example/x', 'http://b.example/y'], allCount: 4, expect: [0.25, 0.25] },
  { name: 'internal and external factors by host', defines: { 'db.score.link.internal': '2', 'db.score.link.external': '0.5' }, score: '1',
    targets: ['http://from.example/other', 'http://FROM.example/x', 'http://elsewhere.example/'], allCount: 3, expect: [2 / 3, 2 / 3, 0.5 / 3] },
  { name: 'no score in the parse data: nothing to distribute', targets: ['http://a.example/x'], allCount: 1, expect: [0] },
  { name: 'an unparseable score counts as 0', score: 'abc', targets: ['http://a.example/x'], allCount: 1, expect: [0] },
  { name: 'a malformed target URL gets the external score', defines: { 'db.score.link.internal': '3' }, score: '1', targets: ['not a url'], allCount: 1, expect: [1] },
];
for (const c of distributeCases) {
  test(`OPIC distributeScoreToOutlinks: ${c.name}`, async (t) => {
    const f = await opic(t, c.defines);
    const parseData = createParseData({ contentMeta: c.score === undefined ? {} : { 'nutch.crawl.score': [c.score] } });
    const targets = c.targets.map(target);
    const adjust = f.distributeScoreToOutlinks('http://from.example/page', parseData, targets, null, c.allCount);
    assert.equal(adjust, null, 'no adjust datum: the page keeps its cash, as Nutch');
    for (let i = 0; i < targets.length; i++) assert.ok(Math.abs(targets[i]!.datum.score - c.expect[i]!) < 1e-12, `${c.targets[i]}: ${targets[i]!.datum.score} != ${c.expect[i]}`);
  });
}

test('OPIC distributeScoreToOutlinks with no kept outlinks returns the adjust datum untouched', async (t) => {
  const f = await opic(t);
  const adjust = datum(0.1, CrawlStatus.STATUS_LINKED);
  assert.equal(f.distributeScoreToOutlinks('http://a/', createParseData({ contentMeta: { 'nutch.crawl.score': ['1'] } }), [], adjust, 0), adjust);
  assert.equal(adjust.score, 0.1);
});

test('OPIC indexerScore = dbScore ^ indexer.score.power x initScore', async (t) => {
  const doc = { fields: {}, weight: 1 } as unknown as NutchDocument;
  const f = await opic(t);
  assert.equal(f.indexerScore!('http://a/', doc, datum(4), null, null, null, 3), 6);
  const g = await opic(t, { 'indexer.score.power': '1' });
  assert.equal(g.indexerScore!('http://a/', doc, datum(4), null, null, null, 3), 12);
  assert.equal(f.indexerScore!('http://a/', doc, null, null, null, null, 3), 3, 'no CrawlDb datum: the initial score');
});

test('OPIC through the ScoringFilters chain (scoring.filter.order accepts the Nutch class name)', async (t) => {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'scoring.filter.order': 'org.apache.nutch.scoring.opic.OPICScoringFilter' } });
  const chain = await ctx.extensions.scoringFilters();
  assert.deepEqual(chain.chain, ['scoring-opic']);
  const d = datum(1);
  chain.updateDbScore('http://a/', datum(1), d, [datum(0.5, CrawlStatus.STATUS_LINKED)]);
  assert.equal(d.score, 1.5);
});
