/** `nutch dump` (FileDumper) through the real CLI on a real crawl: files by MIME type, Nutch's layouts, -mimeStats. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { spawnNutch } from '../helpers/cli.js';
import { crawlInto, startWeb } from '../helpers/crawled-web.js';
import { tempDir } from '../helpers/temp-dir.js';
import { fixtureContext } from '../helpers/context.js';

test('dump writes each fetched document as a file, filtered by MIME type, in Nutch\'s layouts', async (t) => {
  const web = await startWeb(t, { hosts: 1, pagesPerHost: 3, linksPerPage: 2, sitemaps: true, seed: 9 });
  const cwd = tempDir(t);
  const xml = web.url(0, '/sitemap.xml');
  await crawlInto(cwd, [web.seeds[0]!, xml], { rounds: 2 });
  const nutch = (argv: string[]) => spawnNutch(argv, { cwd, env: { NUTCH_CONF_DIR: cwd } });
  const pages = [0, 1, 2].map((p) => web.url(0, web.model.pagePath(p))).filter((u) => web.requestsFor(u).length > 0);
  assert.ok(pages.length >= 1);

  const all = await nutch(['dump', '-outputDir', 'out', '-segment', 'crawl/segments']);
  assert.equal(all.code, 0, all.stderr);
  const md5 = (u: string) => createHash('md5').update(u).digest('hex');
  const home = md5(web.seeds[0]!);
  const homeFile = join(cwd, 'out', home.slice(0, 2), home.slice(2, 4), `${home}_.html`);
  assert.ok(existsSync(homeFile), homeFile);
  assert.deepEqual(readFileSync(homeFile), Buffer.from(await (await fetch(web.seeds[0]!)).arrayBuffer()));
  const x = md5(xml);
  const xmlFile = join(cwd, 'out', x.slice(0, 2), x.slice(2, 4), `${x}_sitemap.xml`);
  assert.match(readFileSync(xmlFile, 'utf8'), /<urlset/);
  const mapping = readdirSync(join(cwd, 'out')).filter((f) => f.endsWith('_filenameToUrl.json'));
  const ctx = fixtureContext(t, { cwd });
  const segments = (await ctx.storage.listSegments(join(cwd, 'crawl', 'segments'))).map((p) => basename(p));
  assert.deepEqual(mapping.sort(), segments.map((s) => `${s}_filenameToUrl.json`).sort(), 'one mapping per segment');
  const urls = mapping.flatMap((f) => Object.values(JSON.parse(readFileSync(join(cwd, 'out', f), 'utf8')) as Record<string, string>));
  assert.deepEqual(new Set(urls), new Set([...pages, xml]));

  const onlyXml = await nutch(['dump', '-outputDir', 'xml', '-segment', 'crawl/segments', '-mimetype', 'application/xml', 'text/plain', '-flatdir']);
  assert.equal(onlyXml.code, 0, onlyXml.stderr);
  assert.deepEqual(readdirSync(join(cwd, 'xml')).filter((f) => !f.endsWith('.json')), [`${x}_sitemap.xml`]);

  const rev = await nutch(['dump', '-outputDir', 'rev', '-segment', 'crawl/segments', '-reverseUrlDirs']);
  assert.equal(rev.code, 0, rev.stderr);
  const sha = createHash('sha256').update(web.seeds[0]!).digest('hex').toUpperCase();
  assert.ok(existsSync(join(cwd, 'rev', '2', '0', '0', '127', sha)));

  const stats = await nutch(['dump', '-segment', 'crawl/segments', '-mimeStats', '-mimetype', 'application/xml']);
  assert.equal(stats.code, 0, stats.stderr);
  assert.match(stats.stdout, /TOTAL Stats:[\s\S]*\{"mimeType":"application\/xml","count":"1"\}[\s\S]*\{"mimeType":"text\/html","count":"\d+"\}[\s\S]*FILTER Stats:\n  \[\n    \{"mimeType":"application\/xml","count":"1"\}\n  \]/);
});
