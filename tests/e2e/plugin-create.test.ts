/**
 * Issue 17's acceptance: `nutch plugin create` output (JavaScript and TypeScript) from the packed
 * nutch-ts: its generated test passes with nutch-ts/testing, `npm pack` ships what it needs (`files`),
 * and the unpacked package, in plugin.includes, runs in a crawl of the local test web.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { packedApp } from '../helpers/packed-app.js';
import { startTestWeb } from '../web/test-web.js';
import { projectRoot, writeFile } from '../helpers/temp-dir.js';

const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');

function run(cmd: string, args: string[], cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_update_notifier: 'false', npm_config_loglevel: 'error' } });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

const DEFAULT_INCLUDES = 'protocol-http|urlfilter-(regex|validator)|parse-(html|text)|index-(basic|anchor)|indexer-sqlite|scoring-opic|urlnormalizer-(pass|regex|basic)';

for (const variant of [{ name: 'nutch-urlfilter-denyjs', flags: [] as string[] }, { name: 'nutch-urlfilter-denyts', flags: ['--typescript'] }]) {
  test(`nutch plugin create ${variant.flags.join(' ')}: its test passes, it packs, and it runs in a crawl`, { timeout: 300_000 }, async (t) => {
    const app = await packedApp();
    // Under the app, so the generated test's `nutch-ts` (a devDependency) resolves from the app's node_modules.
    const work = mkdtempSync(join(app.appDir, 'scaffold-'));
    t.after(() => rmSync(work, { recursive: true, force: true }));
    const created = await run(process.execPath, [app.nutchBin, 'plugin', 'create', variant.name, ...variant.flags], work);
    assert.equal(created.code, 0, created.out);
    const dir = join(work, variant.name);
    if (variant.flags.includes('--typescript')) {
      const built = await run(process.execPath, [tsc, '-p', '.'], dir);
      assert.equal(built.code, 0, built.out);
    }
    const tested = await run(process.execPath, ['--test', 'test/'], dir);
    assert.equal(tested.code, 0, tested.out);
    assert.match(tested.out, /# pass 1\b/);

    // npm pack, then unpack as npm install would: only what `files` ships.
    const packed = spawnSync('npm', ['pack', '--pack-destination', work], { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error', npm_config_ignore_scripts: 'true' } });
    assert.equal(packed.status, 0, packed.stderr);
    const tgz = join(work, packed.stdout.trim().split('\n').pop()!);
    const installed = join(work, 'installed', 'node_modules', variant.name);
    mkdirSync(installed, { recursive: true });
    assert.equal(spawnSync('tar', ['-xzf', tgz, '-C', installed, '--strip-components=1']).status, 0);

    const web = await startTestWeb({ hosts: 2, pagesPerHost: 3, linksPerPage: 2, seed: 5 });
    t.after(() => web.close());
    const denied = new URL(web.seeds[1]!).hostname;
    writeFile(join(work, 'conf', 'nutch-site.json'), {
      'http.agent.name': 'scaffold-bot', 'fetcher.server.delay': 0,
      'plugin.includes': `${DEFAULT_INCLUDES}|${variant.name}`,
      [`urlfilter.${variant.name.replace('nutch-urlfilter-', '')}.hosts`]: [denied],
    });
    writeFile(join(work, 'crawl.mjs'), `import { createNutch } from 'nutch-ts';
const nutch = await createNutch({ crawlDir: 'crawl', pluginFolders: [${JSON.stringify(installed)}] });
try {
  const s = await nutch.crawl({ seeds: ${JSON.stringify(web.seeds)}, rounds: 1, index: false }).result;
  const chain = nutch.context.extensions.effectiveChains().URLFilter;
  console.log(JSON.stringify({ injected: s['inject.urls_injected'], filtered: s['inject.urls_filtered'], chain, kept: !!(await nutch.readdb(${JSON.stringify(web.seeds[0])})), dropped: !!(await nutch.readdb(${JSON.stringify(web.seeds[1])})) }));
} finally {
  await nutch.close();
}
`);
    const crawled = await run(process.execPath, ['crawl.mjs'], work);
    assert.equal(crawled.code, 0, crawled.out);
    const r = JSON.parse(crawled.out.trim().split('\n').pop()!);
    assert.ok(r.chain.includes(variant.name), JSON.stringify(r));
    assert.deepEqual([r.injected, r.filtered, r.kept, r.dropped], [1, 1, true, false], JSON.stringify(r));
  });
}

test('nutch plugin create --point URLNormalizer / IndexingFilter: the generated tests pass; bad input is a usage error', { timeout: 300_000 }, async (t) => {
  const app = await packedApp();
  const work = mkdtempSync(join(app.appDir, 'scaffold-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  for (const [name, point] of [['nutch-urlnormalizer-utm', 'URLNormalizer'], ['@acme/nutch-index-len', 'IndexingFilter']] as const) {
    const created = await run(process.execPath, [app.nutchBin, 'plugin', 'create', name, '--point', point], work);
    assert.equal(created.code, 0, created.out);
    const tested = await run(process.execPath, ['--test', 'test/'], join(work, name.replace(/^@[^/]+\//, '')));
    assert.equal(tested.code, 0, tested.out);
    assert.match(tested.out, /# pass 1\b/);
  }
  const badPoint = await run(process.execPath, [app.nutchBin, 'plugin', 'create', 'nutch-x', '--point', 'Parser'], work);
  assert.equal(badPoint.code, 2);
  assert.match(badPoint.out, /templates for URLFilter, URLNormalizer, IndexingFilter; got --point Parser/);
  const badName = await run(process.execPath, [app.nutchBin, 'plugin', 'create', 'Nutch X'], work);
  assert.equal(badName.code, 2);
  assert.match(badName.out, /"Nutch X" is not a valid npm package name/);
  const exists = await run(process.execPath, [app.nutchBin, 'plugin', 'create', 'nutch-urlnormalizer-utm'], work);
  assert.equal(exists.code, 2);
  assert.match(exists.out, /exists and is not empty/);
});
