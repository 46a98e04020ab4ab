/**
 * parser.outlinks.ceiling (issue 18): a page with more outlinks than the ceiling keeps the first
 * `ceiling` of them even with db.max.outlinks.per.page=-1; the rest are never held, only counted
 * (outlinks.overCeiling) and logged naming the page. parse-html stops collecting at the ceiling; any other
 * parser's list (parse-text here) is cut in the parse worker. Through the real CLI against a local server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { basename, join } from 'node:path';
import { fixtureContext } from '../helpers/context.js';
import { runNutch } from '../helpers/cli.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';

const LINKS = 600;
const CEILING = 200;

test('a page over parser.outlinks.ceiling: the first links kept, the rest counted and logged (db.max.outlinks.per.page=-1)', async (t) => {
  const html = `<html><body>${Array.from({ length: LINKS }, (_, i) => `<a href="/h/${i}">h${i}</a><a href="/empty/${i}"></a>`).join('\n')}</body></html>`;
  const text = Array.from({ length: LINKS }, (_, i) => `see http://127.0.0.1:PORT/t/${i} here`).join('\n');
  const srv = createServer((req, res) => {
    const port = String((srv.address() as { port: number }).port);
    if (req.url === '/links.html') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end(html);
    if (req.url === '/links.txt') return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end(text.replaceAll('PORT', port));
    res.writeHead(404).end();
  });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  t.after(() => srv.close());
  const base = `http://127.0.0.1:${(srv.address() as { port: number }).port}`;
  const cwd = tempDir(t);
  writeFile(join(cwd, 'urls', 'seeds.txt'), `${base}/links.html\n${base}/links.txt\n`);
  const defines = ['-D', 'http.agent.name=x', '-D', 'fetcher.server.delay=0', '-D', 'db.max.outlinks.per.page=-1', '-D', `parser.outlinks.ceiling=${CEILING}`,
    '-D', 'plugin.includes=protocol-http|parse-(html|text)|urlfilter-regex|urlnormalizer-basic|scoring-opic', '-D', 'urlfilter.regex.rules=+.'];
  const run = async (argv: string[]) => {
    const r = await runNutch([argv[0]!, ...defines, ...argv.slice(1)], { cwd });
    assert.equal(r.code, 0, `${argv.join(' ')}: ${r.stderr}`);
    return r;
  };
  await run(['inject', 'crawl/crawldb', 'urls']);
  await run(['generate', 'crawl/crawldb', 'crawl/segments']);
  const [generated] = await fixtureContext(t, { cwd }).storage.listSegments(join(cwd, 'crawl', 'segments'));
  const segment = join('crawl', 'segments', basename(generated!));
  await run(['fetch', segment]);
  const parsed = await run(['parse', segment]);
  // html: 600 real links (the empty <a></a> are no links, over the ceiling or not) → 400 over; text: 400 over
  assert.match(parsed.stderr, new RegExp(`outlinks\\.overCeiling=${2 * (LINKS - CEILING)}\\b`), parsed.stderr.slice(-1500));
  assert.match(parsed.stderr, new RegExp(`outlinks\\.kept=${2 * CEILING}\\b`));
  for (const page of ['links.html', 'links.txt']) {
    assert.match(parsed.stderr, new RegExp(`${base}/${page.replace('.', '\\.')}: ${LINKS - CEILING} outlinks beyond parser\\.outlinks\\.ceiling \\(${CEILING}\\) skipped`));
  }
  await run(['updatedb', 'crawl/crawldb', segment]);
  const stats = await run(['readdb', 'crawl/crawldb', '-stats']);
  assert.match(stats.stdout, new RegExp(`TOTAL urls:\\s+${2 + 2 * CEILING}\\b`), stats.stdout);
  for (const [path, present] of [['/h/0', true], [`/h/${CEILING - 1}`, true], [`/h/${CEILING}`, false], [`/t/${CEILING - 1}`, true], [`/t/${CEILING}`, false], ['/empty/0', false]] as const) {
    const r = await runNutch(['readdb', 'crawl/crawldb', '-url', base + path], { cwd });
    assert.equal(/not found/i.test(r.stdout + r.stderr), !present, `${path}: ${r.stdout}${r.stderr}`);
  }
});
