/**
 * Issue 17's TTY acceptance: `nutch crawl` run in a pseudo-terminal (util-linux `script`) draws the
 * fetch progress line in place with the total, the percentage and pages/s; the same run through a pipe
 * prints no terminal escapes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestWeb } from '../web/test-web.js';
import { projectRoot, tempDir } from '../helpers/temp-dir.js';
import { cliStorageArgs } from '../helpers/test-storage.js';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function run(command: string[], cwd: string, tty: boolean): Promise<{ code: number; out: string }> {
  // a pseudo-terminal made by `script` has no size of its own: give it 200 columns, as a wide terminal
  const args = tty ? ['-qfec', `stty cols 200 rows 50; exec ${command.map(quote).join(' ')}`, '/dev/null'] : command.slice(1);
  const child = spawn(tty ? 'script' : command[0]!, args, { cwd, env: { PATH: process.env.PATH, NUTCH_CONF_DIR: cwd, TERM: 'xterm' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

test('nutch crawl on a TTY redraws one fetch line with total, % and pages/s; off a TTY plain lines', { skip: spawnSync('script', ['--version']).status !== 0 && 'util-linux script is not installed' }, async (t) => {
  const web = await startTestWeb({ hosts: 3, pagesPerHost: 6, linksPerPage: 3, seed: 9 });
  t.after(() => web.close());
  const cwd = tempDir(t);
  writeFileSync(join(cwd, 'nutch-site.json'), JSON.stringify({ 'http.agent.name': 'tty-test', 'fetcher.server.delay': 0.01, 'db.ignore.external.links': false }));
  writeFileSync(join(cwd, 'seeds.txt'), web.seeds.join('\n') + '\n');
  const nutch = [process.execPath, '--import', import.meta.resolve('tsx'), join(projectRoot, 'sdk', 'cli', 'main.ts')];
  const storage = cliStorageArgs(['crawl'], cwd);

  const tty = await run([...nutch, 'crawl', ...storage, '-s', 'seeds.txt', 'crawl', '2'], cwd, true);
  assert.equal(tty.code, 0, tty.out);
  // drawn in place: carriage return + erase line, then the line itself
  const lines = [...tty.out.matchAll(/\r\x1b\[2K(fetch \[[^\r\n]*)/g)].map((m) => m[1]!);
  assert.ok(lines.length > 0, `no fetch progress line drawn:\n${JSON.stringify(tty.out)}`);
  const last = lines.at(-1)!;
  assert.match(last, /^fetch \[#+\] \d+\/\d+ 100% \| [\d.]+ pages\/s \| ETA 0:00 \| [\d.]+ (B|kB|MB) \| ok \d+, redirect 0, not found 0, gone 0, robots denied 0, exceptions 0/);
  const [, done, total] = /\] (\d+)\/(\d+)/.exec(last)!;
  assert.equal(done, total);

  const piped = await run([...nutch, 'crawl', ...storage, '-s', 'seeds.txt', 'crawl2', '1'], cwd, false);
  assert.equal(piped.code, 0, piped.out);
  assert.doesNotMatch(piped.out, /\x1b\[/);
  assert.match(piped.out, /fetch \(round 1\): done in [\d.]+ s success=3/);
});
