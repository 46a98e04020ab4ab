/** An http redirect to file:///… is never followed nor recorded, even with protocol-file on and no URL filter. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startTestWeb } from '../web/test-web.js';
import { runNutch } from '../helpers/cli.js';
import { storageArgs } from '../helpers/test-storage.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import { fetchContext, generateSegment, readPart } from './fetch-helpers.js';

for (const max of ['2', '0']) {
  test(`nutch fetch, http.redirect.max=${max}: a redirect from http to file: is refused and counted`, async (t) => {
    const secret = writeFile(join(tempDir(t), 'passwd'), 'root:x:0:0:secret\n');
    const web = await startTestWeb({ hosts: 1, pagesPerHost: 1, linksPerPage: 1 });
    t.after(() => web.close());
    const ctx = fetchContext(t);
    const target = pathToFileURL(secret).href;
    const redirect = web.url(0, `/special/redirect-to?url=${encodeURIComponent(target)}`);
    const seg = await generateSegment(ctx, [[redirect]]);
    const cwd = tempDir(t);
    const r = await runNutch(['fetch', '-D', 'http.agent.name=x', '-D', 'fetcher.server.delay=0', '-D', 'plugin.includes=protocol-(http|file)',
      '-D', `http.redirect.max=${max}`, ...storageArgs(ctx), seg], { cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /redirect_scheme_refused=1/);
    const fetched = await readPart(ctx, seg, 'crawl_fetch');
    assert.deepEqual(fetched.map((x) => x.url), [redirect], 'only the redirecting page is recorded');
    for (const c of await readPart(ctx, seg, 'content')) assert.doesNotMatch(Buffer.from(c.value.content).toString(), /secret/);
  });
}
