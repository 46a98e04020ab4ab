/** `nutch parsechecker` against a real HTTP server on 127.0.0.1 and a file: URL; `nutch parse` on a real segment. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runNutch } from '../helpers/cli.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import { testStorageConfig } from '../helpers/test-storage.js';
import { createContext } from '../../core/crawl/context.js';
import { silentLogger } from '../../core/log.js';
import { createContent } from '../../core/model/content.js';

const PAGE = `<html><head><title>Checker page</title><meta name="description" content="for the checker"></head>
<body><p>Hello checker</p><a href="/next.html">Next page</a> <a href="http://elsewhere.example/">Away</a></body></html>`;

async function server(t: TestContext): Promise<string> {
  const srv: Server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /secret\n');
    if (req.url === '/old') return void res.writeHead(301, { location: '/page.html' }).end();
    if (req.url === '/page.html' || req.url === '/secret.html') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    if (req.url === '/data.bin') return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('<title>forced</title>');
    if (req.url === '/blob.bin') return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 3, 0xfe, 0xff, 0x10]));
    res.writeHead(404).end('nope');
  });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  t.after(() => srv.close());
  const { port } = srv.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

function confDir(t: TestContext): string {
  const dir = tempDir(t);
  writeFile(join(dir, 'nutch-site.json'), { 'http.agent.name': 'nutch-ts-test', 'plugin.includes': 'protocol-http|parse-(html|text|metatags)', 'parser.worker.threads': 1 });
  return dir;
}

test('parsechecker: Nutch layout — contentType, signature, ParseData with status, title, outlinks, metadata; -dumpText', async (t) => {
  const base = await server(t);
  const r = await runNutch(['parsechecker', '-dumpText', `${base}/page.html`], { cwd: confDir(t) });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^fetching: ${base}/page.html$`, 'm'));
  assert.match(r.stdout, /^contentType: text\/html; charset=utf-8$/m);
  assert.match(r.stdout, /^signature: [0-9a-f]{32}$/m);
  assert.match(r.stdout, /^---------\nParseData\n---------\n\nVersion: 5\nStatus: success\(1,0\)\nTitle: Checker page\nOutlinks: 2$/m);
  assert.match(r.stdout, new RegExp(`^  outlink: toUrl: ${base}/next.html anchor: Next page$`, 'm'));
  assert.match(r.stdout, /^  outlink: toUrl: http:\/\/elsewhere.example\/ anchor: Away$/m);
  assert.match(r.stdout, /^Parse Metadata: .*metatag\.description=for the checker /m);
  assert.match(r.stdout, /^---------\nParseText\n---------\n\nChecker page\nHello checker\nNext page Away$/m);
});

test('parsechecker: -followRedirects follows a 301; without it the fetch fails', async (t) => {
  const base = await server(t);
  const cwd = confDir(t);
  const followed = await runNutch(['parsechecker', '-followRedirects', `${base}/old`], { cwd });
  assert.equal(followed.code, 0, followed.stderr);
  assert.match(followed.stdout, new RegExp(`^fetching: ${base}/page.html$`, 'm'));
  assert.match(followed.stdout, /Title: Checker page/);
  const stopped = await runNutch(['parsechecker', `${base}/old`], { cwd });
  assert.equal(stopped.code, 3);
  assert.match(stopped.stderr, /Fetch failed with protocol status: MOVED/);
});

test('parsechecker: -checkRobotsTxt, -forceAs and -json', async (t) => {
  const base = await server(t);
  const cwd = confDir(t);
  const denied = await runNutch(['parsechecker', '-checkRobotsTxt', `${base}/secret.html`], { cwd });
  assert.equal(denied.code, 3);
  assert.match(denied.stderr, /ROBOTS_DENIED/);
  const forced = await runNutch(['parsechecker', '-json', '-forceAs', 'text/html', `${base}/data.bin`], { cwd });
  assert.equal(forced.code, 0, forced.stderr);
  const json = JSON.parse(forced.stdout.trim());
  assert.equal(json.contentType, 'text/html');
  assert.equal(json.parser, 'parse-html');
  assert.equal(json.parses[0].title, 'forced');
  // A generic type is resolved from the bytes: markup is HTML; unknown bytes stay application/octet-stream (parse-tika is not included here).
  const sniffed = await runNutch(['parsechecker', `${base}/data.bin`], { cwd });
  assert.equal(sniffed.code, 0, sniffed.stderr);
  assert.match(sniffed.stdout, /Title: forced/);
  const unparsable = await runNutch(['parsechecker', `${base}/blob.bin`], { cwd });
  assert.equal(unparsable.code, 3);
  assert.match(unparsable.stdout, /Status: failed\(2,200\): No parser found for content type "application\/octet-stream"/);
});

test('parsechecker: file: URLs and stdin mode', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'local.html');
  writeFile(file, '<title>Local file</title><a href="other.html">other</a>');
  const r = await runNutch(['parsechecker', '-stdin'], { cwd: confDir(t), stdin: `${pathToFileURL(file).href}\n` });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Title: Local file/);
  assert.match(r.stdout, new RegExp(`outlink: toUrl: ${pathToFileURL(join(dir, 'other.html')).href} anchor: other`));
});

test('nutch parse: parses a segment, refuses to parse it twice (exit 1), -force parses again', async (t) => {
  const cwd = confDir(t);
  const ctx = createContext({ cwd, env: { NUTCH_CONF_DIR: cwd }, logger: silentLogger, config: testStorageConfig(cwd) });
  const seg = await ctx.storage.createSegment(join(cwd, 'crawl', 'segments'), '20260102030405');
  const w = await seg.openWriter('content', 0, { totalPartitions: 1 });
  const metadata = { _fst_: ['33'] }; // fetch_success, as the fetcher records it
  await w.append([{ url: 'http://a.example/', value: createContent({ url: 'http://a.example/', contentType: 'text/html', content: new TextEncoder().encode(PAGE), metadata }) }]);
  await w.finish();
  await w.close();
  await seg.close();
  await ctx.close();

  const first = await runNutch(['parse', seg.path], { cwd });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /ParseSegment: finished at .* ParserStatus\.success=1/);
  const second = await runNutch(['parse', seg.path], { cwd });
  assert.equal(second.code, 1);
  assert.match(second.stderr, /already parsed/);
  const forced = await runNutch(['parse', seg.path, '-force'], { cwd });
  assert.equal(forced.code, 0, forced.stderr);
  const usage = await runNutch(['parse'], { cwd });
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /Usage: nutch parse/);
});
