/** The HostDb from the embedding SDK: nutch.updatehostdb() and nutch.readhostdb(host) on <crawl>/hostdb. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createNutch } from '../../sdk/create-nutch.js';
import { createMemoryLogger } from '../../core/log.js';
import { tempDir } from '../helpers/temp-dir.js';
import { testStorageUrl } from '../helpers/test-storage.js';

test('nutch.updatehostdb() builds <crawl>/hostdb from the CrawlDb; nutch.readhostdb(host) reads one host', async (t) => {
  const cwd = tempDir(t);
  const storageUrl = testStorageUrl();
  const nutch = await createNutch({ cwd, crawlDir: join(cwd, 'crawl'), logger: createMemoryLogger(), ...(storageUrl ? { storage: storageUrl } : {}) });
  try {
    await nutch.inject(['http://a.example/', 'http://a.example/x', 'http://b.example/y']);
    assert.equal(await nutch.readhostdb('a.example'), null, 'no HostDb yet');
    const counters = await nutch.updatehostdb();
    assert.equal(counters.total_hosts, 2);
    const a = await nutch.readhostdb('A.example');
    assert.equal(a?.unfetched, 2);
    assert.equal(a?.homepageUrl, '', 'an unfetched root is no home page yet');
    assert.equal((await nutch.readhostdb('b.example'))?.unfetched, 1);
  } finally {
    await nutch.close();
  }
});
