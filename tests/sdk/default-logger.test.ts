/**
 * Quiet by default: createNutch() without a logger writes only warnings and errors to stderr;
 * NUTCH_LOG_LEVEL changes the level, and a value that is not a level is named in a warning.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot, tempDir, writeFile } from '../helpers/temp-dir.js';

/** A child that builds a crawler (plugin chains logged at INFO) and injects a seed, with no logger option. */
function runChild(cwd: string, level?: string): Promise<{ code: number; stderr: string }> {
  const sdk = pathToFileURL(join(projectRoot, 'sdk', 'index.ts')).href;
  const script = `const { createNutch } = await import(${JSON.stringify(sdk)});
const nutch = await createNutch({ crawlDir: 'crawl', config: { 'http.agent.name': 'quietbot' } });
try { await nutch.inject(['http://127.0.0.1:9/']); } finally { await nutch.close(); }`;
  const file = writeFile(join(cwd, 'child.mjs'), script);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NUTCH_CONF_DIR: cwd };
  if (level !== undefined) env.NUTCH_LOG_LEVEL = level;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), file], { cwd, env });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
  });
}

test('no logger given: nothing on stderr for a clean run', async (t) => {
  const dir = tempDir(t);
  const r = await runChild(dir);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
});

test('no logger given: warnings still reach stderr', async (t) => {
  const dir = tempDir(t);
  writeFile(join(dir, 'nutch-site.json'), { 'fetcher.threads.fecth': 3 });
  const r = await runChild(dir);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /WARN .*fetcher\.threads\.fecth/);
  assert.doesNotMatch(r.stderr, / INFO /);
});

test('NUTCH_LOG_LEVEL=info brings back the INFO lines', async (t) => {
  const r = await runChild(tempDir(t), 'info');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, / INFO /);
});

test('NUTCH_LOG_LEVEL with a value that is not a level: a warning naming it, then warn level', async (t) => {
  const r = await runChild(tempDir(t), 'loud');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /WARN  NUTCH_LOG_LEVEL="loud" is not a log level \(debug, info, warn, error, silent\); using warn/);
  assert.doesNotMatch(r.stderr, / INFO /);
});
