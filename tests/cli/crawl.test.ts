/** `nutch crawl` as operators run it: a real child process over the local test web. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnNutch, runNutch } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { fixtureContext } from '../helpers/context.js';
import { startTestWeb } from '../web/test-web.js';

test('nutch crawl -i -s <seeds> <dir> 2 runs bin/crawl\'s stages and prints a summary; search finds pages', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 6, linksPerPage: 3, seed: 4 });
  t.after(() => web.close());
  const cwd = tempDir(t);
  mkdirSync(join(cwd, 'urls'));
  writeFileSync(join(cwd, 'urls', 'seed.txt'), web.seeds.join('\n') + '\n');
  const r = await spawnNutch(['crawl', '-i', '-D', 'http.agent.name=cli-test', '-Dfetcher.server.delay=0.01', '--num-threads', '4', '--num-tasks', '2', '-s', 'urls', 'crawl', '2'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Crawl finished: 2 round\(s\)/);
  assert.match(r.stdout, /fetch: .*success=\d+/);
  assert.equal(r.stderr.match(/--num-tasks 2 ignored: it sets the number of Hadoop reduce tasks/g)?.length, 1, 'says so once');
  for (const stage of ['inject', 'generate (round 1)', 'fetch (round 1)', 'parse (round 1)', 'updatedb (round 1)', 'invertlinks (round 1)', 'dedup (round 1)', 'index (round 1)']) {
    assert.ok(r.stderr.includes(`${stage}: done`), `progress shows ${stage}`);
  }
  const linkDb = await fixtureContext(t, { cwd }).storage.openLinkDb(join(cwd, 'crawl', 'linkdb'));
  assert.ok(await linkDb.exists() && (await linkDb.count()) > 0, 'invertlinks wrote the LinkDb');
  await linkDb.close();

  // honest summary: one line per round with that round's own counts; the CrawlDb as readdb counts it
  const rounds = [...r.stdout.matchAll(/^  round (\d) \(segment \d{14}\): fetched (\d+) \(success=(\d+)[^)]*\), parsed (\d+), \+(\d+) URLs in the CrawlDb, (\d+) indexed/gm)];
  assert.deepEqual(rounds.map((m) => m[1]), ['1', '2'], r.stdout);
  const totalSuccess = Number(/^  fetch: .*\bsuccess=(\d+)/m.exec(r.stdout)![1]);
  assert.equal(rounds.reduce((n, m) => n + Number(m[3]), 0), totalSuccess, 'per-round fetches add up to the total');
  const stats = await spawnNutch(['readdb', 'crawl/crawldb', '-stats'], { cwd });
  assert.equal(stats.code, 0, stats.stderr);
  const total = /^TOTAL urls:\t(\d+)$/m.exec(stats.stdout)![1];
  const fetched = /^status 2 \(db_fetched\):\t(\d+)$/m.exec(stats.stdout)![1];
  assert.match(r.stdout, new RegExp(`^  crawldb: +TOTAL urls=${total} .*\\bdb_fetched=${fetched}\\b.*\\(as readdb crawl/crawldb -stats\\)$`, 'm'));
  assert.equal(Number(fetched), totalSuccess, 'db_fetched is what the rounds fetched, not a sum of per-round CrawlDb totals');
  const s = await spawnNutch(['search', 'crawl', '"Host 1 page 0"', '-n', '2'], { cwd });
  assert.equal(s.code, 0, s.stderr);
  assert.ok(s.stdout.includes(web.seeds[1]!), s.stdout);
});

test('nutch crawl stops with exit 0 when nothing is left to generate', async (t) => {
  const cwd = tempDir(t);
  writeFileSync(join(cwd, 'seeds.txt'), '# no seeds\n');
  const r = await runNutch(['crawl', '-D', 'http.agent.name=x', '-s', 'seeds.txt', 'crawl', '-1'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Crawl finished: 0 round\(s\)/);
});

test('nutch crawl checks the agent name before anything is written: no CrawlDb, no orphan segment', async (t) => {
  const cwd = tempDir(t);
  writeFileSync(join(cwd, 'seeds.txt'), 'http://127.0.0.1:9/\n');
  for (let attempt = 0; attempt < 2; attempt++) {
    const r = await runNutch(['crawl', '-s', 'seeds.txt', 'crawl', '1'], { cwd });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /NUTCH_CONFIG_MISSING_AGENT: No agents listed in 'http.agent.name' property/);
    assert.equal(existsSync(join(cwd, 'crawl')), false, 'nothing written');
  }
  // on PostgreSQL the stores are in the database, where nothing may have been written either
  const storage = fixtureContext(t, { cwd }).storage;
  const crawlDb = await storage.openCrawlDb(join(cwd, 'crawl', 'crawldb'));
  assert.equal(await crawlDb.exists(), false, 'no CrawlDb');
  await crawlDb.close();
  assert.deepEqual(await storage.listSegments(join(cwd, 'crawl', 'segments')), [], 'no segment');
});

for (const [argv, why] of [
  [['crawl'], 'no arguments'],
  [['crawl', 'dir'], 'no round count'],
  [['crawl', 'dir', 'two'], 'a round count that is not a number'],
  [['crawl', 'dir', '0'], 'zero rounds'],
  [['crawl', '--dedup-group', 'page', 'dir', '1'], 'an unknown dedup group'],
  [['crawl', '-w', 'soon', 'dir', '1'], 'a wait that is not a duration'],
  [['crawl', '--bogus', 'dir', '1'], 'an unknown option'],
  [['crawl', '--num-tasks', 'many', 'dir', '1'], 'a task count that is not a number'],
] as const) {
  test(`nutch crawl exits 2 with usage on ${why}`, async (t) => {
    const r = await runNutch([...argv], { cwd: tempDir(t) });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Usage: nutch crawl|crawl: NUTCH_USAGE/);
  });
}
