import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runNutch, spawnNutch } from '../helpers/cli.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';

test('nutch generate (child process): exit 0 with the segment, then exit 1 saying why nothing is left', async (t) => {
  const dir = tempDir(t);
  writeFile(path.join(dir, 'urls', 'seed.txt'), 'http://a.example/\nhttp://b.example/\n');
  const env = { NUTCH_CONF_DIR: dir };
  assert.equal((await runNutch(['inject', 'crawl/crawldb', 'urls'], { cwd: dir, env })).code, 0);
  const first = await spawnNutch(['generate', '-D', 'generate.update.crawldb=true', 'crawl/crawldb', 'crawl/segments', '-topN', '5', '-numFetchers', '2'], { cwd: dir, env });
  assert.equal(first.code, 0, first.stderr);
  const m = /Generator: segment: (.*\d{14})\n/.exec(first.stdout);
  assert.ok(m, first.stdout);
  assert.deepEqual(fs.readdirSync(path.join(m[1], 'crawl_generate')).sort(), ['_SUCCESS', 'part-00000', 'part-00001']);
  const second = await spawnNutch(['generate', '-Dgenerate.update.crawldb=true', 'crawl/crawldb', 'crawl/segments'], { cwd: dir, env });
  assert.equal(second.code, 1);
  assert.match(second.stderr, /0 records selected for fetching.*no URL is due for fetching \(0 not due yet, 2 generated recently/);
  const bad = await runNutch(['generate', 'crawl/crawldb', 'crawl/segments', '-topN', 'x'], { cwd: dir, env });
  assert.equal(bad.code, 2);
  const none = await runNutch(['generate', 'nowhere', 'crawl/segments'], { cwd: dir, env });
  assert.equal(none.code, 3);
  assert.match(none.stderr, /NUTCH_STORAGE_NOT_FOUND/);
});
