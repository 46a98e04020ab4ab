import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runNutch, spawnNutch } from '../helpers/cli.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';

test('nutch readdb (child process): -stats, -url, -dump -format csv, -topN', async (t) => {
  const dir = tempDir(t);
  writeFile(path.join(dir, 'urls', 'seed.txt'), 'http://a.example/\tnutch.score=3\nhttp://b.example/\n');
  const env = { NUTCH_CONF_DIR: dir };
  assert.equal((await runNutch(['inject', 'crawldb', 'urls'], { cwd: dir, env })).code, 0);
  const stats = await spawnNutch(['readdb', 'crawldb', '-stats'], { cwd: dir, env });
  assert.equal(stats.code, 0, stats.stderr);
  assert.match(stats.stdout, /^Statistics for CrawlDb: .*crawldb\nTOTAL urls:\t2\n/);
  assert.match(stats.stdout, /min score:\t1\.0\navg score:\t2\.0\nmax score:\t3\.0\nstatus 1 \(db_unfetched\):\t2\n$/);
  const url = await runNutch(['readdb', 'crawldb', '-url', 'http://a.example/'], { cwd: dir, env });
  assert.match(url.stdout, /^URL: http:\/\/a\.example\/\nVersion: 7\nStatus: 1 \(db_unfetched\)\n/);
  assert.equal((await runNutch(['readdb', 'crawldb', '-dump', 'out', '-format', 'csv'], { cwd: dir, env })).code, 0);
  assert.equal(fs.readFileSync(path.join(dir, 'out', 'part-r-00000'), 'utf8').split('\n').length, 4);
  assert.equal((await runNutch(['readdb', 'crawldb', '-topN', '1', 'top'], { cwd: dir, env })).code, 0);
  assert.equal(fs.readFileSync(path.join(dir, 'top', 'part-r-00000'), 'utf8'), '3.0\thttp://a.example/\n');
  assert.equal((await runNutch(['readdb', 'crawldb'], { cwd: dir, env })).code, 2);
});
