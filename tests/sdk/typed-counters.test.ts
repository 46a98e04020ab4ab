/**
 * Typed counters (issue 17): every counter a stage reports is one its type declares
 * (core/crawl/counter-names.ts), so the types the SDK returns are true. Drives each stage method, and
 * crawl(), on a test web with redirects and missing pages, plus bad seed lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNutch, type FetchCounters, type CrawlSummaryCounters, type UpdateHostDbCounters } from '../../sdk/index.js';
import { isDeclaredCounter, COUNTER_NAMES } from '../../core/crawl/counter-names.js';
import { silentLogger } from '../../core/log.js';
import { startTestWeb } from '../web/test-web.js';
import { join } from 'node:path';
import { tempDir, writeFile } from '../helpers/temp-dir.js';

type Stage = keyof typeof COUNTER_NAMES | 'crawl';

function undeclared(stage: Stage, counters: object): string[] {
  return Object.keys(counters).filter((name) => !isDeclaredCounter(stage, name)).map((name) => `${stage}: ${name}`);
}

/** The counters a stage reports that its type does not declare (problems), and every name seen. */
function counterCheck(): { problems: string[]; seen: Set<string>; check: (stage: Stage, counters: object) => void } {
  const problems: string[] = [];
  const seen = new Set<string>();
  const check = (stage: Stage, counters: object) => {
    problems.push(...undeclared(stage, counters));
    for (const k of Object.keys(counters)) seen.add(`${stage}.${k}`);
  };
  return { problems, seen, check };
}

test('every counter the stages and the crawl summary report is declared by their types', { timeout: 120_000 }, async (t) => {
  const web = await startTestWeb({ hosts: 3, pagesPerHost: 8, linksPerPage: 3, seed: 41, redirects: 2, notFoundRatio: 0.2 });
  t.after(() => web.close());
  const dir = tempDir(t, 'nutch-counters-');
  const nutch = await createNutch({ cwd: dir, logger: silentLogger, config: { 'http.agent.name': 'counters-test', 'fetcher.server.delay': 0, 'http.redirect.max': 1 } });
  const { problems, seen, check } = counterCheck();
  try {
    check('inject', await nutch.inject([...web.seeds, 'not a url', 'ftp://example.invalid/x', `${web.seeds[0]}?same`]));
    for (let round = 0; round < 2; round++) {
      const generated = await nutch.generate({});
      check('generate', generated.counters);
      for (const segment of generated.segments) {
        const fetched: FetchCounters = await nutch.fetch(segment);
        check('fetch', fetched);
        check('parse', await nutch.parse(segment, { force: true }));
      }
      check('updatedb', await nutch.updatedb(generated.segments));
      check('invertlinks', await nutch.invertlinks(generated.segments));
      check('index', await nutch.index(generated.segments));
      check('dedup', await nutch.dedup());
    }
    const run = nutch.crawl({ rounds: 1 });
    for await (const e of run) if (e.type === 'stage-end' && e.stage !== 'crawl' && e.stage in COUNTER_NAMES) check(e.stage as Stage, e.counters);
    const summary: CrawlSummaryCounters = await run.result;
    check('crawl', summary);
    assert.ok((summary['fetch.success'] ?? 0) >= 0);
    // @ts-expect-error a misspelt counter name does not compile (npm run typecheck)
    void summary['fetch.sucess'];
  } finally {
    await nutch.close();
  }
  assert.deepEqual(problems, [], 'counters reported but not declared in core/crawl/counter-names.ts');
  // the web really produced less common counters (redirects, bad seeds, unfetched content), so the check covered them
  for (const name of ['fetch.success', 'fetch.moved', 'fetch.redirect_followed', 'inject.urls_malformed', 'parse.ParseSegment.skipped.notFetched', 'updatedb.db_redir_perm', 'crawl.rounds']) {
    assert.ok(seen.has(name), `${name} was reported (seen: ${[...seen].sort().join(', ')})`);
  }
});

test('updatehostdb and sitemap counters are declared too: the SDK call, the crawl\'s stage-end events and its summary', { timeout: 120_000 }, async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 5, linksPerPage: 1, externalLinkRatio: 0, sitemaps: true, seed: 12 });
  t.after(() => web.close());
  const dir = tempDir(t, 'nutch-counters-');
  // host 1 only through its sitemaps (bin/crawl -sm); every host's sitemaps again from the HostDb
  writeFile(join(dir, 'sitemaps', 'hosts.txt'), `${web.hosts[1]}\n`);
  // names are resolved through this file alone (no DNS query): a host missing from it is unknown
  const hostsFile = writeFile(join(dir, 'hosts'), '127.0.0.1 localhost\n');
  const nutch = await createNutch({ cwd: dir, logger: silentLogger, config: { 'http.agent.name': 'counters-test', 'fetcher.server.delay': 0, 'hostdb.resolver.hosts.file': hostsFile } });
  const { problems, seen, check } = counterCheck();
  try {
    const run = nutch.crawl({ seeds: [web.seeds[0]!], sitemapDir: join(dir, 'sitemaps'), hostDbUpdate: true, sitemapsFromHostDb: 'always', rounds: 2 });
    for await (const e of run) if (e.type === 'stage-end' && (e.stage === 'sitemap' || e.stage === 'updatehostdb')) check(e.stage, e.counters);
    const summary: CrawlSummaryCounters = await run.result;
    check('crawl', summary);
    // a host that does not resolve, injected (never fetched): counted as 1_times_failed
    await nutch.inject(['http://unknown-host.invalid/']);
    const hosts: UpdateHostDbCounters = await nutch.updatehostdb({ checkNew: true, checkKnown: true, force: true });
    check('updatehostdb', hosts);
    // @ts-expect-error a misspelt counter name does not compile (npm run typecheck)
    void hosts.total_hostz;
  } finally {
    await nutch.close();
  }
  assert.deepEqual(problems, [], 'counters reported but not declared in core/crawl/counter-names.ts');
  for (const name of ['sitemap.sitemaps_from_hostname', 'sitemap.sitemaps', 'sitemap.new_sitemap_entries', 'updatehostdb.total_hosts', 'crawl.sitemap.new_sitemap_entries', 'crawl.updatehostdb.total_hosts']) {
    assert.ok(seen.has(name), `${name} was reported (seen: ${[...seen].sort().join(', ')})`);
  }
  assert.ok(seen.has('updatehostdb.1_times_failed'), `updatehostdb.1_times_failed was reported (seen: ${[...seen].sort().join(', ')})`);
});

test('isDeclaredCounter: the summary names are <stage>.<declared counter>, time.<stage>.ms, crawldb.<status>', () => {
  assert.equal(isDeclaredCounter('fetch', 'success'), true);
  assert.equal(isDeclaredCounter('fetch', 'sucess'), false);
  assert.equal(isDeclaredCounter('crawl', 'fetch.success'), true);
  assert.equal(isDeclaredCounter('crawl', 'fetch.parse.ParserStatus.success'), true);
  assert.equal(isDeclaredCounter('crawl', 'time.fetch.ms'), true);
  assert.equal(isDeclaredCounter('crawl', 'time.fetch'), false);
  assert.equal(isDeclaredCounter('crawl', 'crawldb.db_fetched'), true);
  assert.equal(isDeclaredCounter('crawl', 'crawldb.nonsense'), false);
  assert.equal(isDeclaredCounter('crawl', 'nostage.success'), false);
  assert.equal(isDeclaredCounter('updatehostdb', '3_times_failed'), true);
  assert.equal(isDeclaredCounter('updatehostdb', 'x_times_failed'), false);
  assert.equal(isDeclaredCounter('crawl', 'updatehostdb.0_times_failed'), true);
  assert.equal(isDeclaredCounter('crawl', 'sitemap.new_sitemap_entries'), true);
  assert.equal(isDeclaredCounter('sitemap', '0_times_failed'), false);
});
