/** `nutch readseg -list / -get / -dump` over a segment the real crawler wrote. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNutch } from '../../sdk/create-nutch.js';
import { createMemoryLogger } from '../../core/log.js';
import { runNutch } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { testStorageConfig } from '../helpers/test-storage.js';
import { startTestWeb } from '../web/test-web.js';

test('readseg lists, gets and dumps a crawled segment', async (t) => {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 4, linksPerPage: 2, seed: 8 });
  t.after(() => web.close());
  const cwd = tempDir(t);
  const nutch = await createNutch({ cwd, logger: createMemoryLogger(), config: { 'http.agent.name': 'readseg-test', 'fetcher.server.delay': 0.01, ...testStorageConfig(cwd) } });
  try {
    await nutch.crawl({ seeds: web.seeds, rounds: 1, index: false }).result;
  } finally {
    await nutch.close();
  }
  const list = await runNutch(['readseg', '-list', '-dir', 'crawl/segments'], { cwd });
  assert.equal(list.code, 0, list.stderr);
  const [header, row] = list.stdout.trim().split('\n');
  assert.match(header!, /^NAME\t\tGENERATED\tFETCHER START\t\tFETCHER END\t\tFETCHED\tPARSED$/);
  assert.match(row!, /^\d{14}\t1\t\t.+\t.+\t1\t1$/);
  const segment = join('crawl', 'segments', row!.split('\t')[0]!);

  const get = await runNutch(['readseg', '-get', segment, web.seeds[0]!, '-nocontent'], { cwd });
  assert.equal(get.code, 0, get.stderr);
  assert.match(get.stdout, /CrawlDatum::/);
  assert.match(get.stdout, /ParseData::[\s\S]*Title: Host 0 page 0/);
  assert.doesNotMatch(get.stdout, /Content::/);

  const missing = await runNutch(['readseg', '-get', segment, 'http://127.0.0.1/nowhere'], { cwd });
  assert.equal(missing.code, 1);

  const dump = await runNutch(['readseg', '-dump', segment, 'out', '-noparsetext'], { cwd });
  assert.equal(dump.code, 0, dump.stderr);
  const text = readFileSync(join(cwd, 'out', 'dump'), 'utf8');
  assert.match(text, /^Recno:: 0\nURL:: http:\/\/127\.0\.0\.2:\d+\/\n/);
  assert.match(text, /Content::\nVersion: -1\nurl: /);
  assert.doesNotMatch(text, /ParseText::/);
});

test('readseg without exactly one of -list, -dump, -get is a usage error', async (t) => {
  const cwd = tempDir(t);
  for (const argv of [['readseg'], ['readseg', '-list', '-get', 'x'], ['readseg', '-dump', 'only-one']]) {
    const r = await runNutch(argv, { cwd });
    assert.equal(r.code, 2, argv.join(' '));
  }
});
