/**
 * What a NutchContext owns and how it lets go: close() (and Symbol.asyncDispose) stops running stages
 * politely and waits for them before stopping plugins; the parse pool, the log level and a crawl's own
 * settings belong to one context; the inline parse never touches a segment after its fetch closed it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNutch } from '../../sdk/create-nutch.js';
import { createContext } from '../../core/crawl/context.js';
import { crawl } from '../../core/crawl/crawl/crawl.js';
import type { CrawlStages } from '../../core/crawl/crawl/crawl-stages.js';
import { fetchStage } from '../../core/crawl/stages.js';
import { closeParsePool, parsePoolOf } from '../../core/parse/parsers.js';
import { createMemoryLogger } from '../../core/log.js';
import { describeSource } from '../../core/config/configuration.js';
import type { ProgressEvent } from '../../core/crawl/progress.js';
import type { StorageEngine } from '../../core/storage/interfaces.js';
import { openStorageEngine } from '../../core/storage/open-storage.js';
import { fixtureContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { generateSegment, fetchContext } from '../fetch/fetch-helpers.js';
import { startTestWeb } from '../web/test-web.js';

const page = (url: string) => ({ url, baseUrl: url, content: new TextEncoder().encode('<html><title>t</title></html>'), contentType: 'text/html', metadata: {} });

test('close() stops a running fetch politely and waits for it before stopping the plugins', async (t) => {
  const cwd = tempDir(t);
  let started!: () => void;
  const inFlight = new Promise<void>((resolve) => (started = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const events: string[] = [];
  const nutch = await createNutch({
    cwd,
    logger: createMemoryLogger(),
    config: { 'http.agent.name': 'lifecycle-test', 'plugin.includes': 'urlnormalizer-pass', 'fetcher.server.delay': 0 },
    plugins: [{
      id: 'protocol-held',
      stop() { events.push('plugin stopped'); },
      extensions: [{ point: 'Protocol', parameters: { protocolName: 'held' }, implementation: class {
        async getProtocolOutput(url: string) {
          started();
          await released;
          events.push(`fetched ${url}`);
          return { content: null, status: { code: 14, args: [], lastModified: 0 } };
        }
      } }],
    }],
  });
  const ctx = Object.assign(nutch.context, { crawlDir: cwd });
  const segment = await generateSegment(ctx, [['held://a/1', 'held://a/2', 'held://a/3']]);
  const fetching = nutch.fetch(segment, { threads: 1 }, { onProgress: (e: ProgressEvent) => { if (e.type === 'stage-end') events.push('fetch ended'); } });
  await inFlight;
  const closing = nutch.close();
  release();
  await closing;
  const counters = await fetching;
  assert.equal(counters.stopped_by_abort, 1, 'the fetch was stopped politely');
  assert.deepEqual(events, ['fetched held://a/1', 'fetch ended', 'plugin stopped'], 'the in-flight fetch finished and the stage ended before the plugin stopped');
  await assert.rejects(nutch.fetch(segment), /NUTCH_CLOSED|closed/);
});

test('a NutchContext is disposable: Symbol.asyncDispose closes it once, stopping plugins and its parse pool', async (t) => {
  const cwd = tempDir(t);
  const stopped: string[] = [];
  const ctx = createContext({
    cwd, root: cwd, env: { NUTCH_CONF_DIR: cwd }, includeBuiltins: false, logger: createMemoryLogger(),
    config: { 'plugin.includes': 'filter-counted' },
    plugins: [{ id: 'filter-counted', stop() { stopped.push('filter-counted'); }, extensions: [{ point: 'URLFilter', implementation: class { filter(u: string) { return u; } } }] }],
  });
  await ctx.extensions.urlFilters();
  const pool = parsePoolOf(ctx);
  await ctx[Symbol.asyncDispose]();
  await ctx.close();
  assert.deepEqual(stopped, ['filter-counted'], 'stopped once');
  await assert.rejects(pool.parse(page('http://a.example/')), /NUTCH_CLOSED|closed/);
  await assert.rejects(ctx.plugins.getInstance(ctx.plugins.getExtensions('URLFilter')[0]!), /NUTCH_CLOSED|closed/);
});

test('each context owns its own parse pool; closing one leaves the other working', async (t) => {
  const a = fixtureContext(t);
  const b = fixtureContext(t);
  const poolA = parsePoolOf(a);
  const poolB = parsePoolOf(b);
  assert.notEqual(poolA, poolB);
  assert.equal(parsePoolOf(a), poolA, 'one pool per context');
  await closeParsePool(a);
  await assert.rejects(poolA.parse(page('http://a.example/')), /NUTCH_CLOSED|closed/);
  assert.notEqual(parsePoolOf(a), poolA, 'the next parse starts a new pool');
  assert.equal(parsePoolOf(b), poolB, 'the other context kept its pool');
});

test('the log level belongs to the context: an embedder\'s logger gets every level, whatever NUTCH_LOG_LEVEL says', (t) => {
  const cwd = tempDir(t);
  const base = { cwd, root: cwd, includeBuiltins: false };
  const embedded = createContext({ ...base, env: { NUTCH_CONF_DIR: cwd, NUTCH_LOG_LEVEL: 'error' }, logger: createMemoryLogger() });
  t.after(() => embedded.close());
  assert.equal(embedded.logLevel, 'debug');
  const byEnv = createContext({ ...base, env: { NUTCH_CONF_DIR: cwd, NUTCH_LOG_LEVEL: 'info' } });
  t.after(() => byEnv.close());
  assert.equal(byEnv.logLevel, 'info', 'the default logger follows the context\'s environment, not process.env');
  const explicit = createContext({ ...base, env: { NUTCH_CONF_DIR: cwd }, logger: createMemoryLogger(), logLevel: 'warn' });
  t.after(() => explicit.close());
  assert.equal(explicit.logLevel, 'warn');
});

test('crawl --time-limit-fetch reaches the fetch through the crawl\'s own configuration; the crawler\'s is untouched', async (t) => {
  const ctx = fixtureContext(t, { defines: { 'http.agent.name': 'loop-test' } });
  const before = ctx.conf.get('fetcher.timelimit.mins');
  const seen: { value: unknown; source: string }[] = [];
  let generated = 0;
  const none = async () => ({});
  const stages: CrawlStages = {
    inject: none, parse: none, updatedb: none, invertlinks: none, dedup: none, index: none, clean: none,
    generate: async () => ({ counters: {}, segments: generated++ === 0 ? ['seg-1'] : [] }),
    fetch: async (c) => {
      seen.push({ value: c.conf.get('fetcher.timelimit.mins'), source: describeSource(c.conf.sourceOf('fetcher.timelimit.mins')!) });
      return {};
    },
  };
  await crawl(ctx, stages, { crawlDir: tempDir(t), rounds: 1, timeLimitFetch: 7 });
  assert.deepEqual(seen, [{ value: 7, source: 'set by crawl --time-limit-fetch' }]);
  assert.equal(ctx.conf.get('fetcher.timelimit.mins'), before, 'the shared Configuration is as it was');
});

test('the inline parse never touches a segment after its fetch closed it', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 3, linksPerPage: 2, seed: 3 });
  t.after(() => web.close());
  const late: string[] = [];
  const probe = fetchContext(t);
  const engine = watchSegments(openStorageEngine(probe.conf, probe.log, { cwd: probe.crawlDir }), late);
  t.after(() => engine.close());
  const watched = Object.assign(fixtureContext(t, {
    includeBuiltins: true, storage: engine,
    defines: { 'http.agent.name': 'TestBot', 'fetcher.parse': 'true', 'plugin.includes': 'protocol-http|urlnormalizer-pass|parse-html', 'fetcher.server.delay': '0' },
  }), { crawlDir: probe.crawlDir });
  const segment = await generateSegment(watched, [web.seeds, web.hosts.map((_, h) => web.url(h, '/page/1.html'))]);
  const counters = await fetchStage(watched, { segment, threads: 4 });
  assert.ok((counters['parse.ParserStatus.success'] ?? 0) > 0, 'pages were parsed inline');
  assert.deepEqual(late, [], 'no segment or part writer was used after the segment was closed');
  const seg = await watched.storage.openSegment(segment);
  const complete = await seg.isComplete('parse_data');
  await seg.close();
  assert.ok(complete, 'the inline parse completed its parts before the segment closed');
});

/** The engine, with every segment (and its part writers) recording any call made after the segment's close(). */
function watchSegments(engine: StorageEngine, late: string[]): StorageEngine {
  const watch = <T extends object>(target: T, name: string, isClosed: () => boolean, onCall?: (method: string, result: unknown) => unknown): T =>
    new Proxy(target, {
      get(obj, prop, receiver) {
        const value = Reflect.get(obj, prop, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (isClosed()) late.push(`${name}.${String(prop)}`);
          const out = value.apply(obj, args);
          return onCall ? onCall(String(prop), out) : out;
        };
      },
    });
  return watch(engine, 'engine', () => false, (method, out) => {
    if (method !== 'openSegment') return out;
    return (out as Promise<object>).then((segment) => {
      let closed = false;
      return watch(segment, 'segment', () => closed, (m, result) => {
        if (m === 'close') closed = true;
        if (m !== 'openWriter') return result;
        return (result as Promise<object>).then((writer) => watch(writer, 'writer', () => closed));
      });
    });
  });
}
