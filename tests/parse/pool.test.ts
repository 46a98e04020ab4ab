import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { createTestContext } from '../../sdk/testing.js';
import { createContent, ParseStatusCode, ParseStatusMinor } from '../../sdk/plugin.js';
import { parsePoolOf } from '../../core/parse/parsers.js';
import { BIG_DOCUMENT_BYTES } from '../../core/parse/pool.js';

const testPlugins = fileURLToPath(new URL('./plugins/', import.meta.url));

function context(defines: Record<string, string> = {}, folders = ['parse-runaway', 'htmlparsefilter-count']) {
  return createTestContext({
    cwd: mkdtempSync(join(tmpdir(), 'parse-pool-')),
    env: { NUTCH_CONF_DIR: join(tmpdir(), 'no-such-conf') },
    pluginFolders: folders.map((f) => join(testPlugins, f)),
    defines: { 'plugin.includes': 'parse-(html|text|runaway|start-fails)|htmlparsefilter-count', 'parser.worker.threads': '1', ...defines },
  });
}

const page = (url: string, contentType: string, body = '<title>t</title><a href="/next">next</a>') =>
  createContent({ url, contentType, content: new TextEncoder().encode(body) });

test('pool: parses in a worker thread, runs the HtmlParseFilter chain on the DOM there, returns absolute outlinks and a signature', async () => {
  const ctx = context();
  try {
    const pool = parsePoolOf(ctx);
    const out = await pool.parse(page('http://a.example/dir/p.html', 'text/html; charset=utf-8', '<html><body><div><a href="x/y">y</a></div><p>t</p></body></html>'));
    const parse = out.result.parses['http://a.example/dir/p.html']!;
    assert.equal(out.parser, 'parse-html');
    assert.deepEqual(parse.data.outlinks, [{ toUrl: 'http://a.example/dir/x/y', anchor: 'y' }]);
    assert.equal(parse.data.parseMeta['test.elements']?.[0], '5'); // html, body, div, a, p
    assert.notEqual(parse.data.parseMeta['test.thread']?.[0], String(threadId));
    assert.equal(out.signature?.length, 16);
    assert.equal(parse.data.contentMeta['nutch.content.digest']?.[0], Buffer.from(out.signature!).toString('hex'));
  } finally {
    await ctx.close();
  }
});

test('pool: the caller keeps its content bytes (a copy is transferred)', async () => {
  const ctx = context();
  try {
    const content = page('http://a.example/', 'text/html');
    const before = content.content.length;
    await parsePoolOf(ctx).parse(content);
    assert.equal(content.content.length, before);
  } finally {
    await ctx.close();
  }
});

test('pool: lent bytes move to an idle worker and come back with the answer; a page queued behind it and a slice of a larger buffer are copied', async () => {
  const ctx = context();
  try {
    const pool = parsePoolOf(ctx);
    await pool.ready();
    const a = page('http://a.example/', 'text/html', '<title>lent a</title>');
    const b = page('http://b.example/', 'text/html', '<title>lent b</title>');
    const [bytesA, bytesB] = [Array.from(a.content), Array.from(b.content)];
    const outs = [pool.parse(a, { lendBytes: true }), pool.parse(b, { lendBytes: true })];
    assert.equal(a.content.length, 0, 'moved to the idle worker, not copied');
    assert.equal(b.content.length, bytesB.length, 'queued in the busy worker: a copy');
    const [outA, outB] = await Promise.all(outs);
    assert.deepEqual(Array.from(a.content), bytesA, 'back with the answer');
    assert.deepEqual(Array.from(b.content), bytesB);
    assert.equal(outA.result.parses['http://a.example/']!.data.title, 'lent a');
    assert.equal(outB.result.parses['http://b.example/']!.data.title, 'lent b');
    const record = new TextEncoder().encode('--<title>slice</title>');
    const slice = createContent({ url: 'http://c.example/', contentType: 'text/html', content: record.subarray(2) });
    const out = pool.parse(slice, { lendBytes: true });
    assert.equal(slice.content.length, record.length - 2, 'a slice is copied: its buffer holds more than the page');
    assert.equal((await out).result.parses['http://c.example/']!.data.title, 'slice');
  } finally {
    await ctx.close();
  }
});

test('pool: parser.timeout abandons a runaway parse, replaces the worker, and the next page parses', async () => {
  const ctx = context({ 'parser.timeout': '1' });
  try {
    const pool = parsePoolOf(ctx);
    await pool.ready();
    const started = Date.now();
    const looping = pool.parse(page('http://a.example/loop', 'application/x-loop'));
    const queued = pool.parse(page('http://a.example/after', 'text/html'));
    const out = await looping;
    const status = out.result.parses['http://a.example/loop']!.data.status;
    assert.equal(status.majorCode, ParseStatusCode.FAILED);
    assert.match(status.args[0]!, /timed out after 1s \(parser\.timeout\)/);
    const elapsed = Date.now() - started;
    // Abandoned at the 1 s timeout, not when the loop ends (it never does); generous slack for loaded machines.
    assert.ok(elapsed >= 990 && elapsed < 8000, `abandoned after ${elapsed} ms`);
    const next = await queued;
    assert.equal(next.result.parses['http://a.example/after']!.data.status.majorCode, ParseStatusCode.SUCCESS);
    assert.equal(pool.stats.timeouts, 1);
    assert.equal(pool.stats.workersStarted, 2);
    assert.ok(ctx.log.records.some((r) => r.level === 'warn' && /timed out/.test(r.msg)));
  } finally {
    await ctx.close();
  }
});

test('pool: a worker that crashes fails only its page; the pool survives', async () => {
  const ctx = context();
  try {
    const pool = parsePoolOf(ctx);
    const crashed = await pool.parse(page('http://a.example/crash', 'application/x-crash'));
    const status = crashed.result.parses['http://a.example/crash']!.data.status;
    assert.equal(status.majorCode, ParseStatusCode.FAILED);
    assert.match(status.args[0]!, /worker crashed: uncaught inside the parse worker/);
    const ok = await pool.parse(page('http://a.example/ok', 'text/html'));
    assert.equal(ok.result.parses['http://a.example/ok']!.data.status.majorCode, ParseStatusCode.SUCCESS);
    assert.equal(pool.stats.crashes, 1);
  } finally {
    await ctx.close();
  }
});

test('pool: pages sent to a worker behind one that crashes it are parsed by its replacement, in order', async () => {
  const ctx = context();
  try {
    const pool = parsePoolOf(ctx);
    await pool.ready();
    const crashed = pool.parse(page('http://a.example/crash', 'application/x-crash'));
    const behind = ['http://a.example/b1', 'http://a.example/b2', 'http://a.example/b3'].map((u) => pool.parse(page(u, 'text/html')));
    assert.equal((await crashed).result.parses['http://a.example/crash']!.data.status.majorCode, ParseStatusCode.FAILED);
    for (const [i, p] of behind.entries()) {
      const out = await p;
      assert.equal(out.result.parses[`http://a.example/b${i + 1}`]!.data.status.majorCode, ParseStatusCode.SUCCESS);
    }
    assert.equal(pool.stats.crashes, 1);
    assert.equal(pool.stats.parsed, 3, "the three pages behind it");
  } finally {
    await ctx.close();
  }
});

test('pool: a parser that throws gives a failed parse tagged with the parser id', async () => {
  const ctx = context();
  try {
    const out = await parsePoolOf(ctx).parse(page('http://a.example/t', 'application/x-throw'));
    const status = out.result.parses['http://a.example/t']!.data.status;
    assert.equal(status.majorCode, ParseStatusCode.FAILED);
    assert.equal(status.minorCode, ParseStatusMinor.FAILED_EXCEPTION);
    assert.match(status.args[0]!, /parse-runaway:throw: cannot parse http:\/\/a.example\/t/);
  } finally {
    await ctx.close();
  }
});

test('pool: no parser for a content type is a failed parse naming the type', async () => {
  const ctx = context();
  try {
    const out = await parsePoolOf(ctx).parse(page('http://a.example/z', 'application/zip'));
    assert.match(out.result.parses['http://a.example/z']!.data.status.args[0]!, /No parser found for content type "application\/zip"/);
  } finally {
    await ctx.close();
  }
});

test('pool: forceAs parses as another content type', async () => {
  const ctx = context();
  try {
    const out = await parsePoolOf(ctx).parse(page('http://a.example/f', 'application/octet-stream', '<title>forced</title>'), { forceAs: 'text/html' });
    assert.equal(out.result.parses['http://a.example/f']!.data.title, 'forced');
  } finally {
    await ctx.close();
  }
});

test('pool: ready() awaited while the pool closes with its workers still starting rejects NUTCH_CLOSED (it never settled: the stopped worker never says ready)', { timeout: 60_000 }, async () => {
  const ctx = context();
  try {
    const pool = parsePoolOf(ctx);
    const ready = assert.rejects(pool.ready(), { code: 'NUTCH_CLOSED' });
    await pool.close();
    await ready;
    await assert.rejects(pool.ready(), { code: 'NUTCH_CLOSED' });
  } finally {
    await ctx.close();
  }
});

test('pool: a plugin whose start() throws in the worker fails ready() and parse() with NUTCH_PLUGIN_START_FAILED', async () => {
  const ctx = context({}, ['parse-start-fails']);
  try {
    const pool = parsePoolOf(ctx);
    await assert.rejects(pool.ready(), (err: { code?: string; message: string }) => err.code === 'NUTCH_PLUGIN_START_FAILED' && /parse-start-fails.*magic numbers/.test(err.message));
    await assert.rejects(pool.parse(page('http://a.example/', 'text/html')), { code: 'NUTCH_PLUGIN_START_FAILED' });
  } finally {
    await ctx.close();
  }
});

test('pool: two workers parse concurrently', async () => {
  const ctx = context({ 'parser.worker.threads': '2' });
  try {
    const pool = parsePoolOf(ctx);
    await pool.ready();
    const outs = await Promise.all([1, 2, 3, 4].map((i) => pool.parse(page(`http://a.example/${i}`, 'text/html'))));
    const threads = new Set(outs.map((o) => Object.values(o.result.parses)[0]!.data.parseMeta['test.thread']?.[0]));
    assert.equal(pool.size, 2);
    assert.equal(threads.size, 2);
  } finally {
    await ctx.close();
  }
});

test('pool: an HtmlParseFilter that throws fails the parse with an error naming the filter, its plugin and the URL', async () => {
  const ctx = createTestContext({
    cwd: mkdtempSync(join(tmpdir(), 'parse-pool-')),
    env: { NUTCH_CONF_DIR: join(tmpdir(), 'no-such-conf') },
    pluginFolders: [join(testPlugins, 'htmlparsefilter-throw')],
    defines: { 'plugin.includes': 'parse-html|htmlparsefilter-throw', 'parser.worker.threads': '1' },
  });
  try {
    const out = await parsePoolOf(ctx).parse(page('http://a.example/f', 'text/html'));
    const status = out.result.parses['http://a.example/f']!.data.status;
    assert.equal(status.majorCode, ParseStatusCode.FAILED);
    assert.match(status.args[0]!, /HtmlParseFilter htmlparsefilter-throw \(plugin htmlparsefilter-throw\) failed on http:\/\/a\.example\/f: filter exploded/);
  } finally {
    await ctx.close();
  }
});

test('pool: collectGarbage() runs a full collection in each idle worker, which goes on parsing afterwards', async () => {
  const ctx = context();
  try {
    const pool = parsePoolOf(ctx);
    await pool.parse(page('http://a.example/1', 'text/html'));
    assert.equal(await pool.collectGarbage(), 1);
    const out = await pool.parse(page('http://a.example/2', 'text/html'));
    assert.equal(out.result.parses['http://a.example/2']?.data.status.majorCode, ParseStatusCode.SUCCESS);
    assert.equal(pool.stats.workersStarted, 1, 'the same worker parsed both pages');
    assert.equal(pool.stats.collections, 1);
  } finally {
    await ctx.close();
  }
});

test('pool: big documents (>= BIG_DOCUMENT_BYTES) are parsed one at a time, never two in two workers at once; small pages go around them', async () => {
  const ctx = context({ 'parser.worker.threads': '2', 'plugin.includes': 'parse-(html|memory)' }, ['parse-memory']);
  try {
    const pool = parsePoolOf(ctx);
    await pool.ready();
    const big = (i: number) => createContent({ url: `http://big.example/${i}`, contentType: 'application/x-overlap', content: new Uint8Array(BIG_DOCUMENT_BYTES) });
    const outs = await Promise.all([big(0), big(1), big(2), page('http://small.example/', 'text/html'), big(3)].map((c) => pool.parse(c)));
    const overlaps = outs.slice(0, 3).concat(outs[4]!).map((o) => Object.values(o.result.parses)[0]!.data.parseMeta['test.overlap']?.[0]);
    assert.deepEqual(overlaps, ['no', 'no', 'no', 'no']);
    assert.equal(Object.values(outs[3]!.result.parses)[0]!.data.status.majorCode, ParseStatusCode.SUCCESS);
  } finally {
    await ctx.close();
  }
});

test('pool: a worker left holding more than RETIRE_BUFFER_BYTES after a page retires; the next page is parsed by its replacement', async () => {
  const ctx = context({ 'plugin.includes': 'parse-(html|memory)' }, ['parse-memory']);
  try {
    const pool = parsePoolOf(ctx);
    const thread = async (path: string) => {
      const content = createContent({ url: `http://r.example${path}`, contentType: 'application/x-retain', content: new Uint8Array(16).fill(7) });
      const out = await pool.parse(content, { lendBytes: true });
      assert.deepEqual(Array.from(content.content), new Array(16).fill(7), `${path}: lent bytes back, the retiring worker's answer included`);
      return Object.values(out.result.parses)[0]!.data.parseMeta['test.thread']![0];
    };
    const first = await thread('/a');
    assert.equal(await thread('/b'), first, 'a page leaving little behind keeps its worker');
    assert.equal(await thread('/keep'), first);
    // sent to the old worker before its retire message arrived or not, it is parsed by the new one
    assert.notEqual(await thread('/c'), first, 'the page after it is parsed by a new worker');
    assert.equal(pool.stats.retired, 1);
    assert.equal(pool.stats.crashes, 0);
  } finally {
    await ctx.close();
  }
});
