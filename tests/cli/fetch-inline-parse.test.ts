/** `nutch fetch -D fetcher.parse=true` parses inline, as Nutch's Fetcher with parsing on. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNutch } from '../../sdk/create-nutch.js';
import { createMemoryLogger } from '../../core/log.js';
import { runNutch } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { testStorageConfig } from '../helpers/test-storage.js';
import { startTestWeb } from '../web/test-web.js';

test('nutch fetch with fetcher.parse=true writes the parse parts of the segment', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 3, linksPerPage: 2, seed: 6 });
  t.after(() => web.close());
  const cwd = tempDir(t);
  const nutch = await createNutch({ cwd, logger: createMemoryLogger(), config: { 'http.agent.name': 'x', ...testStorageConfig(cwd) } });
  let segment: string;
  try {
    await nutch.inject(web.seeds);
    [segment] = (await nutch.generate()).segments as [string];
  } finally {
    await nutch.close();
  }
  const r = await runNutch(['fetch', '-D', 'http.agent.name=x', '-D', 'fetcher.parse=true', '-D', 'fetcher.server.delay=0.01', segment], { cwd });
  assert.equal(r.code, 0, r.stderr);
  const list = await runNutch(['readseg', '-list', segment], { cwd });
  const row = list.stdout.trim().split('\n')[1]!.split('\t');
  assert.equal(row.at(-1), '2', `parsed count in: ${list.stdout}`);
  const again = await runNutch(['parse', segment], { cwd });
  assert.match(again.stderr + again.stdout, /already parsed|ALREADY_PARSED/i);
});
