/** urlfilter-ignoreexempt: the rule table as Nutch's ExemptionUrlFilter reads it, and a real crawl with db.ignore.external.links. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { URLExemptionFilter } from '../../sdk/plugin.js';
import { fixtureContext } from '../../tests/helpers/context.js';
import { tempDir } from '../../tests/helpers/temp-dir.js';

async function exemption(t: TestContext, rules: string): Promise<URLExemptionFilter> {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'db-ignore-external-exemptions.txt'), rules);
  const ctx = fixtureContext(t, { includeBuiltins: true, cwd: dir, defines: { 'plugin.includes': 'urlfilter-ignoreexempt' } });
  const ext = ctx.plugins.findExtension('URLExemptionFilter', 'org.apache.nutch.urlfilter.ignoreexempt.ExemptionUrlFilter');
  assert.equal(ext?.id, 'urlfilter-ignoreexempt');
  return ctx.plugins.getInstance(ext!) as never;
}

test('urlfilter-ignoreexempt: first matching rule decides, no match is not exempt, only the target URL counts', async (t) => {
  const f = await exemption(t, '# images and documents from anywhere\n-^https?://ads\\.\n+(?i)\\.(jpg|png|pdf)$\n>docs.example.org\n+.\n<\n');
  for (const [to, exempt] of [
    ['http://cdn.example.net/a/logo.PNG', true],
    ['http://ads.example.net/banner.png', false],
    ['http://cdn.example.net/page.html', false],
    ['http://docs.example.org/guide.html', true],
    ['http://www.docs.example.org/guide.html', false],
    ['http://sub.other.example.org/x.pdf', true],
  ] as const) {
    assert.equal(f.filter('http://from.example.com/', to), exempt, to);
    assert.equal(f.filter('http://anything.else/', to), exempt, `${to}: the source URL plays no part`);
  }
});

test('urlfilter-ignoreexempt: the shipped file exempts nothing; a bad rule names file and line', async (t) => {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'urlfilter-ignoreexempt' } });
  const shipped = (await ctx.plugins.getInstance(ctx.plugins.findExtension('URLExemptionFilter', 'urlfilter-ignoreexempt')!)) as URLExemptionFilter;
  assert.equal(shipped.filter('http://a/', 'http://b/x.pdf'), false);
  await assert.rejects(exemption(t, '+ok\n*bad\n'), (e: { message: string }) => /db-ignore-external-exemptions\.txt:2/.test(e.message) && /invalid first character/.test(e.message));
});

test('urlfilter-ignoreexempt in a crawl: with db.ignore.external.links, only exempted external outlinks reach the CrawlDb', async (t) => {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/'
      ? `<a href="http://127.0.0.2:${port}/report.pdf">pdf</a><a href="http://127.0.0.2:${port}/page.html">page</a><a href="/same-host.html">same</a>`
      : '<p>leaf</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise((r) => server.close(r)));
  const port = (server.address() as { port: number }).port;
  const cwd = tempDir(t);
  writeFileSync(join(cwd, 'db-ignore-external-exemptions.txt'), '+\\.pdf$\n');
  const { crawlInto } = await import('../../tests/helpers/crawled-web.js');
  const { readCrawlDb } = await import('../../tests/updatedb/segment-fixtures.js');
  await crawlInto(cwd, [`http://127.0.0.1:${port}/`], { rounds: 1, config: { 'plugin.includes.add': ['urlfilter-ignoreexempt'], 'db.ignore.external.links': true, 'urlfilter.regex.rules': '+.', 'db.ignore.external.exemptions.file': join(cwd, 'db-ignore-external-exemptions.txt') } });
  const ctx = fixtureContext(t, { includeBuiltins: true });
  const urls = [...(await readCrawlDb(ctx.storage, join(cwd, 'crawl', 'crawldb'))).keys()].sort();
  assert.deepEqual(urls, [`http://127.0.0.1:${port}/`, `http://127.0.0.1:${port}/same-host.html`, `http://127.0.0.2:${port}/report.pdf`]);
});
