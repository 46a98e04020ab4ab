/**
 * Issue 8's acceptance: the example plugin (examples/index-readingtime) and the SDK are packed with
 * `npm pack` and installed into an app; the example embedding app (examples/embedding-app) crawls the
 * local test web, and its nutch-site.json discovers, activates and orders the plugin.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packedApp } from '../helpers/packed-app.js';
import { spawnNutch } from '../helpers/cli.js';
import { startTestWeb } from '../web/test-web.js';

function runApp(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['app.mjs', ...args], { cwd, env: { ...process.env, NUTCH_CONF_DIR: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

function setSite(appDir: string, values: Record<string, unknown>): void {
  const file = join(appDir, 'conf', 'nutch-site.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), ...values }, null, 2));
}

test('the example plugin tests pass, run by nutch-ts/testing from the packed SDK', { timeout: 240_000 }, async () => {
  const app = await packedApp();
  const r = await new Promise<{ code: number; out: string }>((resolve) => {
    let out = '';
    const child = spawn(process.execPath, ['--test', 'test/'], { cwd: app.examplePluginDir, env: { PATH: process.env.PATH } });
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('close', (c) => resolve({ code: c ?? -1, out }));
  });
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /pass 3\b/);
});

test('embedding app crawls with the packed SDK and the packed example plugin', { timeout: 240_000 }, async (t) => {
  const app = await packedApp();
  const dir = app.exampleAppDir;
  setSite(dir, { 'fetcher.server.delay': 0.01, 'readingtime.min.words': 0 });
  rmSync(join(dir, 'crawl'), { recursive: true, force: true });
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 6, linksPerPage: 4, seed: 3 });
  t.after(() => web.close());

  const list = await spawnNutch(['plugin', 'list'], { cwd: dir, bin: join(app.appDir, 'node_modules', '.bin', 'nutch'), env: { NUTCH_CONF_DIR: '' } });
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /\* nutch-index-readingtime\s+1\.0\.0\s+package\s+active: matched plugin\.includes/);
  assert.match(list.stdout, /IndexingFilter: index-basic -> nutch-index-readingtime -> index-anchor/);

  const r = await runApp(dir, ['politeness', ...web.seeds], { ROUNDS: '2' });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^HIT /m);
  assert.match(r.stdout, /index #1: .*"indexed \(add\/update\)":[1-9]/);

  // The plugin really runs in the crawl: with a word minimum no page meets, it drops every document.
  rmSync(join(dir, 'crawl'), { recursive: true, force: true });
  setSite(dir, { 'readingtime.min.words': 1_000_000 });
  const dropped = await runApp(dir, ['politeness', ...web.seeds], { ROUNDS: '1' });
  assert.equal(dropped.code, 1, dropped.stdout + dropped.stderr);
  assert.doesNotMatch(dropped.stdout, /^HIT /m);
});
