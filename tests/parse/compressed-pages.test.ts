/**
 * Small compressed pages are parsed: protocol-http decodes gzip/deflate/br and keeps the wire header as
 * Content-Encoding-Original, so the parse stage must not compare the decoded length with the wire
 * Content-Length (a tiny page compresses to MORE bytes than it has).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { gzipSync, deflateSync, brotliCompressSync } from 'node:zlib';
import { createNutch } from '../../sdk/create-nutch.js';
import { createMemoryLogger } from '../../core/log.js';
import { runNutch } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { testStorageConfig } from '../helpers/test-storage.js';

const TINY = '<html><body><a href="/b">b</a></body></html>';
const ENCODERS: Record<string, (b: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

test('nutch parse: tiny gzip, deflate and br pages are parsed, not skipped as truncated', async (t) => {
  const srv = createServer((req, res) => {
    const kind = (req.url ?? '').slice(1).replace(/\.html$/, '');
    const encode = ENCODERS[kind];
    if (!encode) return void res.writeHead(404).end();
    const body = encode(Buffer.from(TINY));
    assert.ok(body.length > TINY.length || kind === 'br', `${kind} body should be larger than the page`);
    res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': kind, 'Content-Length': String(body.length) });
    res.end(body);
  });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  t.after(() => srv.close());
  const base = `http://127.0.0.1:${(srv.address() as { port: number }).port}`;
  const cwd = tempDir(t);
  const nutch = await createNutch({ cwd, logger: createMemoryLogger(), config: { 'http.agent.name': 'x', ...testStorageConfig(cwd) } });
  let segment: string;
  try {
    await nutch.inject(Object.keys(ENCODERS).map((k) => `${base}/${k}.html`));
    [segment] = (await nutch.generate()).segments as [string];
  } finally {
    await nutch.close();
  }
  const defines = ['-D', 'http.agent.name=x', '-D', 'fetcher.server.delay=0', '-D', 'plugin.includes=protocol-http|parse-html|urlfilter-regex|urlnormalizer-basic'];
  const fetched = await runNutch(['fetch', ...defines, segment], { cwd });
  assert.equal(fetched.code, 0, fetched.stderr);
  const parsed = await runNutch(['parse', ...defines, segment], { cwd });
  assert.equal(parsed.code, 0, parsed.stderr);
  assert.doesNotMatch(parsed.stderr, /skipped\.truncated=[1-9]/);
  const list = await runNutch(['readseg', '-list', segment], { cwd });
  const row = list.stdout.trim().split('\n')[1]!.split('\t');
  assert.equal(row.at(-1), '3', `parsed count in: ${list.stdout}`);
});
