import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnNutch } from '../helpers/cli.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';

test('nutch inject (child process): totals on stdout, malformed lines on stderr with file:line; usage errors exit 2', async (t) => {
  const dir = tempDir(t);
  writeFile(path.join(dir, 'urls', 'seed.txt'), 'http://a.example/\nhttp://b.example/\tnutch.score=2\n:::garbage\n');
  const env = { NUTCH_CONF_DIR: dir };
  const ok = await spawnNutch(['inject', 'crawl/crawldb', 'urls'], { cwd: dir, env });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /Injector: Total urls injected after normalization and filtering: 2 \(unique URLs: 2\)/);
  assert.match(ok.stdout, /Injector: Total new urls injected: 2/);
  assert.match(ok.stdout, /Injector: Total malformed seed lines: 1/);
  assert.match(ok.stderr, /seed\.txt:3: malformed URL/);
  const usage = await spawnNutch(['inject', 'crawl/crawldb'], { cwd: dir, env });
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /Usage: nutch inject/);
  const missing = await spawnNutch(['inject', 'crawl/crawldb', 'nope'], { cwd: dir, env });
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /NUTCH_INJECT_NO_SEEDS/);
});
