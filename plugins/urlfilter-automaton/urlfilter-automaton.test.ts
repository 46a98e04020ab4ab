/**
 * urlfilter-automaton: brics syntax (whole-URL match, quoting, @ # ~ &), the shipped rules and Nutch's
 * Benchmarks.rules cases from TestAutomatonURLFilter, errors naming file and line, then a real crawl.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { filterHarness } from '../../tests/helpers/filter-test-harness.js';
import { crawledWeb } from '../../tests/helpers/crawled-web.js';
import { fixtureContext } from '../../tests/helpers/context.js';
import { readCrawlDb } from '../../tests/updatedb/segment-fixtures.js';
import { compileBricsRegex } from './brics-regex.js';
import { projectRoot } from '../../tests/helpers/temp-dir.js';

test('urlfilter-automaton: brics expressions match the whole URL', () => {
  const cases: [string, string, boolean][] = [
    ['http://a.example/', 'http://a.example/', true],
    ['http://a.example/', 'http://a.example/x', false],
    ['.*\\.gif', 'http://a/b.gif', true],
    ['.*\\.gif', 'http://a/b.gif?x=1', false],
    ['.*[?*!@=].*', 'http://a/?q', true],
    ['.*[^a-z/:.].*', 'http://a/b', false],
    ['.*[^a-z/:.].*', 'http://a/B', true],
    ['http://"a.b"/.*', 'http://a.b/x', true],
    ['http://"a.b"/.*', 'http://axb/x', false],
    ['http://a\\.b/x{2,3}', 'http://a.b/xxx', true],
    ['http://a\\.b/x{2,3}', 'http://a.b/xxxx', false],
    ['@', 'anything at all', true],
    ['#|http:.*', 'http://a/', true],
    ['#', '', false],
    ['a()b', 'ab', true],
    ['~(.*\\.example\\..*)', 'http://a.example.com/', false],
    ['~(.*\\.example\\..*)', 'http://other.org/', true],
    ['.*a.*&.*b.*', 'http://xa/b', true],
    ['.*a.*&.*b.*', 'http://xa/c', false],
    ['(x|y)+&.*y.*|~(.*)', 'xxy', true],
    ['^$-:', '^$-:', true],
  ];
  for (const [pattern, input, expected] of cases) assert.equal(compileBricsRegex(pattern).test(input), expected, `${pattern} on ${input}`);
});

test('urlfilter-automaton: the shipped automaton-urlfilter.txt (Nutch\'s)', async (t) => {
  const h = await filterHarness({ id: 'urlfilter-automaton', files: { 'automaton-urlfilter.txt': readFileSync(join(projectRoot, 'conf', 'automaton-urlfilter.txt'), 'utf8') } });
  t.after(() => h.close());
  const cases: [string, boolean][] = [
    ['http://www.example.com/', true], ['http://www.example.com/a/b.html', true], ['file:///etc/passwd', false], ['ftp://ftp.example.com/x', false],
    ['mailto:a@b.example', false], ['http://www.example.com/logo.PNG', false], ['http://www.example.com/logo.png.html', true],
    ['http://www.example.com/s?q=1', false], ['http://www.example.com/a=b', false],
  ];
  for (const [url, accepted] of cases) assert.equal(h.filter(url), accepted ? url : null, url);
});

test("urlfilter-automaton: Nutch's Benchmarks.rules sample, first match decides, >host blocks", async (t) => {
  const rules = ['-(file|ftp|mailto):.*', '-.*\\.(gif|GIF|jpg|JPG|ico|ICO|css|sit|eps|wmf|zip|ppt|mpg|xls|gz|rpm|tgz|mov|MOV|exe|png)', '-.*[?*!@=].*',
    '-.*//.*\\.fr/.*', '-.*//.*\\.org/.*', '-.*//.*\\.net/.*', '>blocked.example.com', '-.*', '<', '+.*'].join('\n');
  const h = await filterHarness({ id: 'urlfilter-automaton', config: { 'urlfilter.automaton.rules': rules } });
  t.after(() => h.close());
  const cases: [string, boolean][] = [
    ['http://www.lemonde.fr/page', false], ['http://apache.org/x', false], ['http://www.apache.org/', false], ['http://example.net/a', false],
    ['http://www.example.com/', true], ['http://www.example.com/img.jpg', false], ['http://blocked.example.com/', false], ['http://example.com/fr/', true],
  ];
  for (const [url, accepted] of cases) assert.equal(h.filter(url), accepted ? url : null, url);
});

test('urlfilter-automaton: rules nutch-ts cannot express, or that are not brics, fail naming file and line', async () => {
  const cases: [string, RegExp][] = [
    ['+.*\n-.*<1-100>.*', /automaton-urlfilter\.txt:2: invalid automaton expression: <n-m> intervals/],
    ['+(a&b)', /:1: invalid automaton expression: intersection \(&\) inside a group/],
    ['+a~b', /:1: invalid automaton expression: complement \(~\) inside a concatenation/],
    ['+~a.*', /:1: invalid automaton expression: complement \(~\) must cover the whole term/],
    ['+(abc', /:1: invalid automaton expression: missing \)/],
    ['+"abc', /:1: invalid automaton expression: unterminated string/],
    ['+[]', /:1: invalid automaton expression: empty character class/],
    ['+*', /:1: invalid automaton expression: unexpected "\*"/],
    ['*x', /:1: invalid first character "\*"/],
  ];
  for (const [rules, message] of cases) {
    await assert.rejects(filterHarness({ id: 'urlfilter-automaton', files: { 'automaton-urlfilter.txt': rules } }), (err: Error & { code?: string }) => err.code === 'NUTCH_RULE_FILE_INVALID' && message.test(err.message), rules);
  }
});

test('urlfilter-automaton in a real crawl: rejected pages never reach the CrawlDb', async (t) => {
  const rules = '-.*/page/[13]\\.html\n+http://127\\.0\\.0\\..*';
  const { cwd } = await crawledWeb(t, { hosts: 1, pagesPerHost: 6, linksPerPage: 5, seed: 7 }, {
    rounds: 2,
    config: { 'plugin.includes': 'protocol-http|urlfilter-automaton|parse-html|scoring-opic|urlnormalizer-basic', 'urlfilter.automaton.rules': rules, 'db.ignore.internal.links': false },
  });
  const ctx = fixtureContext(t, { includeBuiltins: true });
  const db = await readCrawlDb(ctx.storage, join(cwd, 'crawl', 'crawldb'));
  const urls = [...db.keys()];
  assert.ok(urls.some((u) => /\/page\/[245]\.html$/.test(u)), urls.join(' '));
  assert.ok(!urls.some((u) => /\/page\/[13]\.html$/.test(u)), urls.join(' '));
});
