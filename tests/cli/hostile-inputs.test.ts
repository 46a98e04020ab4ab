/** Bad inputs from hostile users, through the real CLI: integers that are not, negative intervals, queries that look like options. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runNutch } from '../helpers/cli.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import { sqliteOnly } from '../helpers/test-storage.js';

test('-D for an integer property refuses 99999999999999999999 and 1.5e3 (exit 2, the property named)', async (t) => {
  const cwd = tempDir(t);
  for (const [define, why] of [['http.content.limit=99999999999999999999', /too large for an integer/], ['http.timeout=1.5e3', /expected an integer/]] as const) {
    const r = await runNutch(['showproperties', '-D', define], { cwd });
    assert.equal(r.code, 2, `${define}: ${r.stdout.slice(0, 200)}`);
    assert.match(r.stderr, new RegExp(define.split('=')[0]!.replace(/\./g, '\\.')));
    assert.match(r.stderr, why);
  }
  const ok = await runNutch(['showproperties', '-D', 'http.timeout=1500'], { cwd });
  assert.equal(ok.code, 0, ok.stderr);
});

test('inject: seed metadata nutch.fetchInterval=-5 is refused (counted, logged); the default interval is stored', async (t) => {
  const cwd = tempDir(t);
  writeFile(join(cwd, 'urls', 'seeds.txt'), 'http://a.example/\tnutch.fetchInterval=-5\nhttp://b.example/\tnutch.fetchInterval=3600\n');
  const r = await runNutch(['inject', 'crawl/crawldb', 'urls'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /fetch interval -5 in metadata 'nutch\.fetchInterval' is not a number of seconds >= 0/);
  const a = await runNutch(['readdb', 'crawl/crawldb', '-url', 'http://a.example/'], { cwd });
  assert.match(a.stdout, /Retry interval: 2592000 seconds/, a.stdout);
  const b = await runNutch(['readdb', 'crawl/crawldb', '-url', 'http://b.example/'], { cwd });
  assert.match(b.stdout, /Retry interval: 3600 seconds/, b.stdout);
});

test('nutch search <crawl> -word and -- -word read the query, not an option', async (t) => {
  const cwd = tempDir(t);
  for (const argv of [['search', 'crawl', '-word'], ['search', 'crawl', '--', '-word'], ['search', '-n', '3', 'crawl', '--', '-json']]) {
    const r = await runNutch(argv, { cwd });
    assert.doesNotMatch(r.stderr, /Unknown option|Usage:/, argv.join(' '));
    assert.match(r.stderr, /NUTCH_INDEX_NOT_FOUND|does not exist yet|run nutch index/i, `${argv.join(' ')}: ${r.stderr}`);
  }
  assert.equal((await runNutch(['search', 'crawl'], { cwd })).code, 2, 'a missing query is still a usage error');
});

test('a crawl dir, CrawlDb or segments dir that is a regular file: NUTCH_STORAGE_NOT_A_DIRECTORY naming it, exit 2', sqliteOnly('on PostgreSQL these paths name stores inside the database, so a file of that name on disk is not in the way'), async (t) => {
  const cwd = tempDir(t);
  writeFile(join(cwd, 'urls', 'seeds.txt'), 'http://a.example/\n');
  writeFile(join(cwd, 'crawlfile'), 'not a directory\n');
  writeFile(join(cwd, 'dbfile'), 'not a directory\n');
  for (const db of ['dbfile', 'crawlfile/crawldb']) {
    const r = await runNutch(['inject', db, 'urls'], { cwd });
    assert.equal(r.code, 2, r.stderr);
    const culprit = db.split('/')[0]!;
    assert.match(r.stderr, new RegExp(`NUTCH_STORAGE_NOT_A_DIRECTORY: .*${culprit} is a file, but a directory was expected`));
    assert.doesNotMatch(r.stderr, /EEXIST|ENOTDIR|\n\s+at /, 'no raw error, no stack trace');
  }
  assert.equal((await runNutch(['inject', 'crawl/crawldb', 'urls'], { cwd })).code, 0);
  writeFile(join(cwd, 'crawl', 'segments'), 'not a directory\n');
  const g = await runNutch(['generate', 'crawl/crawldb', 'crawl/segments'], { cwd });
  assert.equal(g.code, 2, g.stderr);
  assert.match(g.stderr, /NUTCH_STORAGE_NOT_A_DIRECTORY: .*segments is a file/);
});

test('a segment that is a regular file: NUTCH_STORAGE_NOT_A_DIRECTORY naming it (exit 2) in fetch, parse, index, readseg; updatedb skips it with that reason', sqliteOnly('segments are stores inside the database on PostgreSQL, not directories'), async (t) => {
  const cwd = tempDir(t);
  writeFile(join(cwd, 'urls', 'seeds.txt'), 'http://a.example/\n');
  assert.equal((await runNutch(['inject', 'crawl/crawldb', 'urls'], { cwd })).code, 0);
  const seg = 'crawl/segments/20260101000000';
  writeFile(join(cwd, seg), 'not a segment\n');
  for (const argv of [['fetch', seg], ['parse', seg], ['index', 'crawl/crawldb', seg], ['readseg', '-list', seg], ['readseg', '-dump', seg, 'out']]) {
    const r = await runNutch([...argv, '-D', 'http.agent.name=test'], { cwd });
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /NUTCH_STORAGE_NOT_A_DIRECTORY: Segment .*20260101000000 is a file, but a segment directory/, argv.join(' '));
    assert.doesNotMatch(r.stderr, /ENOTDIR|does not exist|\n\s+at /, `${argv.join(' ')}: no raw error, no "missing", no stack trace`);
  }
  const u = await runNutch(['updatedb', 'crawl/crawldb', seg], { cwd });
  assert.equal(u.code, 0, u.stderr);
  assert.match(u.stderr, /skipping .*20260101000000: it is a file, not a segment directory/);
  assert.match(u.stdout + u.stderr, /segments_skipped=1/);
});
