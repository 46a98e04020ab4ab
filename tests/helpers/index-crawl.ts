/**
 * `nutch crawl -i` (the real CLI, in-process) over a test web that serves the given files, with the
 * default plugin.includes plus the plugins under test and indexer-jsonl as the only index writer, so a
 * plugin test can look at exactly what an indexing or parse plugin put into each indexed document.
 */
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { runNutch, type CliResult } from './cli.js';
import { tempDir } from './temp-dir.js';
import { startTestWeb, type TestWeb, type TestWebFile, type TestWebOptions } from '../web/test-web.js';
import defaults from '../../conf/nutch-default.json' with { type: 'json' };

export interface IndexedDoc {
  id: string;
  action: string;
  fields: Record<string, unknown[]>;
}

export interface IndexCrawl {
  web: TestWeb;
  cwd: string;
  crawl: CliResult;
  /** The documents indexed (action add), by id. */
  docs: Map<string, IndexedDoc>;
  /** Every action the writer received (add and delete), in order. */
  actions: IndexedDoc[];
}

export interface IndexCrawlOptions {
  /** Files served on every host at their path. */
  files: Record<string, TestWebFile>;
  /** Seed URLs, given the started web (default: every host's home page). */
  seeds?: (web: TestWeb) => string[];
  /** A regex alternative added to the default plugin.includes (e.g. 'parse-metatags|index-metadata'). */
  plugins: string;
  /** More nutch-site.json properties. */
  site?: Record<string, unknown>;
  /** Files written to the conf directory (rule files), by name; may use the started web. */
  conf?: (web: TestWeb) => Record<string, string>;
  rounds?: number;
  web?: Partial<TestWebOptions>;
  /** More index-writers.json writers, beside the jsonl one. */
  writers?: Record<string, unknown>[];
}

export async function indexCrawl(t: TestContext, opts: IndexCrawlOptions): Promise<IndexCrawl> {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 1, linksPerPage: 0, ...opts.web, files: opts.files });
  t.after(() => web.close());
  const cwd = tempDir(t);
  mkdirSync(join(cwd, 'urls'));
  writeFileSync(join(cwd, 'urls', 'seeds.txt'), `${(opts.seeds?.(web) ?? web.seeds).join('\n')}\n`);
  const includes = (defaults.properties['plugin.includes'] as { default: string }).default;
  writeFileSync(join(cwd, 'nutch-site.json'), JSON.stringify({
    'http.agent.name': 'plugin-test', 'fetcher.server.delay': 0, 'fetcher.server.min.delay': 0, 'parser.worker.threads': 1, 'parser.timeout': 120,
    'plugin.includes': `${includes}|indexer-jsonl|${opts.plugins}`,
    ...opts.site,
  }));
  const docsFile = join(cwd, 'docs.jsonl');
  writeFileSync(join(cwd, 'index-writers.json'), JSON.stringify({ writers: [
    { id: 'jsonl_1', extension: 'indexer-jsonl', parameters: { path: docsFile, mode: 'append' } },
    ...(opts.writers ?? []),
  ] }));
  for (const [name, text] of Object.entries(opts.conf?.(web) ?? {})) writeFileSync(join(cwd, name), text);
  const crawl = await runNutch(['crawl', '-i', '-s', 'urls', 'crawl', String(opts.rounds ?? 1)], { cwd });
  assert.equal(crawl.code, 0, `crawl failed:\n${crawl.stderr}\n${crawl.stdout}`);
  const actions: IndexedDoc[] = existsSync(docsFile) ? readFileSync(docsFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  const docs = new Map(actions.filter((d) => d.action === 'add').map((d) => [d.id, d]));
  return { web, cwd, crawl, docs, actions };
}
