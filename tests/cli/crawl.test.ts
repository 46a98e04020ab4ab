/** `nutch crawl` as operators run it: a real child process over the local test web. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnNutch, runNutch } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestWeb } from '../web/test-web.js';

test('nutch crawl -i -s <seeds> <dir> 2 runs bin/crawl\'s stages and prints a summary; search finds pages', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 6, linksPerPage: 3, seed: 4 });
  t.after(() => web.close());
  const cwd = tempDir(t);
  mkdirSync(join(cwd, 'urls'));
  writeFileSync(join(cwd, 'urls', 'seed.txt'), web.seeds.join('\n') + '\n');
  const r = await spawnNutch(['crawl', '-i', '-D', 'http.agent.name=cli-test', '-Dfetcher.server.delay=0.01', '--num-threads', '4', '-s', 'urls', 'crawl', '2'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Crawl finished: 2 round\(s\)/);
  assert.match(r.stdout, /fetch: .*success=\d+/);
  for (const stage of ['inject', 'generate (round 1)', 'fetch (round 1)', 'parse (round 1)', 'updatedb (round 1)', 'invertlinks (round 1)', 'dedup (round 1)', 'index (round 1)']) {
    assert.ok(r.stderr.includes(`${stage}: done`), `progress shows ${stage}`);
  }
  assert.ok(existsSync(join(cwd, 'crawl', 'linkdb')));
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

for (const [argv, why] of [
  [['crawl'], 'no arguments'],
  [['crawl', 'dir'], 'no round count'],
  [['crawl', 'dir', 'two'], 'a round count that is not a number'],
  [['crawl', 'dir', '0'], 'zero rounds'],
  [['crawl', '--dedup-group', 'page', 'dir', '1'], 'an unknown dedup group'],
  [['crawl', '-w', 'soon', 'dir', '1'], 'a wait that is not a duration'],
  [['crawl', '--bogus', 'dir', '1'], 'an unknown option'],
] as const) {
  test(`nutch crawl exits 2 with usage on ${why}`, async (t) => {
    const r = await runNutch([...argv], { cwd: tempDir(t) });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Usage: nutch crawl|crawl: NUTCH_USAGE/);
  });
}
