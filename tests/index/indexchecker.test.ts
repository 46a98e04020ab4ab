/** `nutch indexchecker` against a real HTTP server on 127.0.0.1 with protocol-http and parse-html. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { join } from 'node:path';
import { runNutch } from '../helpers/cli.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';

const BODY = 'Indexchecker body text '.repeat(10);
const PAGE = `<html><head><title>Checker title</title><meta name="description" content="described"></head><body><p>${BODY}</p></body></html>`;

async function server(t: TestContext): Promise<string> {
  const srv: Server = createServer((req, res) => {
    if (req.url === '/page.html') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'last-modified': 'Wed, 21 Oct 2015 07:28:00 GMT' }).end(PAGE);
    res.writeHead(404).end('nope');
  });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  t.after(() => srv.close());
  return `http://127.0.0.1:${(srv.address() as { port: number }).port}`;
}

function confDir(t: TestContext, extra: object = {}): string {
  const dir = tempDir(t);
  writeFile(join(dir, 'nutch-site.json'), {
    'http.agent.name': 'nutch-ts-test', 'plugin.includes': 'protocol-http|parse-(html|text|metatags)|index-(basic|more|metadata|static)|indexer-sqlite',
    'indexingfilter.order': 'index-basic index-more index-metadata index-static', 'index.parse.md': 'metatag.description', 'index.static': 'source:checker',
    'parser.worker.threads': 1, ...extra,
  });
  return dir;
}

test('indexchecker: Nutch `field :\\tvalue` lines, values cut at 100 characters unless -dumpText', async (t) => {
  const base = await server(t);
  const cwd = confDir(t);
  const r = await runNutch(['indexchecker', `${base}/page.html`], { cwd });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.equal(lines[0], `fetching: ${base}/page.html`);
  assert.equal(lines[1], `parsing: ${base}/page.html`);
  assert.equal(lines[2], 'contentType: text/html; charset=utf-8');
  assert.ok(lines.includes(`id :\t${base}/page.html`));
  assert.ok(lines.includes(`url :\t${base}/page.html`));
  assert.ok(lines.includes('host :\t127.0.0.1'));
  assert.ok(lines.includes('title :\tChecker title'));
  assert.ok(lines.includes('metatag.description :\tdescribed'));
  assert.ok(lines.includes('source :\tchecker'));
  assert.ok(lines.includes('type :\ttext/html'));
  assert.ok(lines.includes('lastModified :\t2015-10-21T07:28:00.000Z'));
  assert.ok(lines.some((l) => /^digest :\t[0-9a-f]{32}$/.test(l)), r.stdout);
  const text = JSON.parse((await runNutch(['indexchecker', '-json', `${base}/page.html`], { cwd })).stdout).fields.content[0] as string;
  assert.ok(text.length > 200);
  assert.ok(r.stdout.includes(`content :\t${text.slice(0, 100)}\n`), 'cut at 100 characters');
  assert.ok(!r.stdout.includes(text.slice(0, 101)));
  const full = await runNutch(['indexchecker', '-dumpText', `${base}/page.html`], { cwd });
  assert.ok(full.stdout.includes(`content :\t${text}\n`), 'whole value with -dumpText');
});

test('indexchecker -json, -doIndex into the embedded index (searchable afterwards), and a 404 exits 3', async (t) => {
  const base = await server(t);
  const cwd = confDir(t);
  const j = await runNutch(['indexchecker', '-json', `${base}/page.html`], { cwd });
  assert.equal(j.code, 0, j.stderr);
  const rec = JSON.parse(j.stdout);
  assert.equal(rec.url, `${base}/page.html`);
  assert.deepEqual(rec.fields.title, ['Checker title']);
  const crawlDir = join(cwd, 'crawl');
  const d = await runNutch(['indexchecker', '-doIndex', '-crawlDir', crawlDir, `${base}/page.html`], { cwd });
  assert.equal(d.code, 0, d.stderr);
  const s = await runNutch(['search', crawlDir, 'indexchecker', '-json'], { cwd });
  assert.equal(JSON.parse(s.stdout).url, `${base}/page.html`);
  const missing = await runNutch(['indexchecker', `${base}/missing.html`], { cwd });
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /Fetch failed with protocol status: notfound/i);
});
