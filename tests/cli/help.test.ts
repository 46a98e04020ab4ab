/** Help, version and "did you mean": what a Unix user types first. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNutch, spawnNutch } from '../helpers/cli.js';
import { projectRoot, tempDir } from '../helpers/temp-dir.js';
import { commands } from '../../sdk/cli/commands.js';

test('nutch crawl --help / -h / nutch help crawl print crawl\'s usage to stdout and exit 0 (real binary)', async (t) => {
  const cwd = tempDir(t);
  const crawl = commands.find((c) => c.name === 'crawl')!;
  for (const [argv, child] of [[['crawl', '--help'], true], [['help', 'crawl'], true], [['crawl', '-h'], false], [['crawl', '-i', 'dir', '--help'], false]] as const) {
    const r = child ? await spawnNutch([...argv], { cwd, env: { NUTCH_CONF_DIR: cwd } }) : await runNutch([...argv], { cwd });
    assert.equal(r.code, 0, `${argv.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, crawl.usage + '\n', argv.join(' '));
    assert.equal(r.stderr, '');
  }
});

test('every command answers --help and `help <command>` with its own usage, exit 0', async (t) => {
  const cwd = tempDir(t);
  for (const c of commands) {
    for (const argv of [[c.name, '--help'], ['help', c.name]]) {
      const r = await runNutch(argv, { cwd });
      assert.equal(r.code, 0, `${argv.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, c.usage + '\n', argv.join(' '));
    }
  }
});

test('nutch help <unknown> exits 2 and suggests the nearest command', async (t) => {
  const r = await runNutch(['help', 'crawll'], { cwd: tempDir(t) });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^Unknown command "crawll". Did you mean "crawl"\?/);
});

test('nutch --version and -version print the package version, exit 0 (real binary)', async (t) => {
  const cwd = tempDir(t);
  const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  for (const flag of ['--version', '-version']) {
    const r = await spawnNutch([flag], { cwd, env: { NUTCH_CONF_DIR: cwd } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `nutch-ts ${version} (Node.js ${process.version})\n`);
  }
});

for (const [argv, suggestion] of [
  [['fetchh'], 'Unknown command "fetchh". Did you mean "fetch"?'],
  [['readbd'], 'Unknown command "readbd". Did you mean "readdb"?'],
  [['injekt'], 'Unknown command "injekt". Did you mean "inject"?'],
  [['crawl', '--num-thread', '4', 'dir', '1'], 'Unknown option --num-thread. Did you mean --num-threads?'],
  [['crawl', '-num-threads', '4', 'dir', '1'], 'Unknown option -num-threads. Did you mean --num-threads?'],
  [['generate', 'db', 'segs', '-topn', '5'], 'Unknown option -topn. Did you mean -topN?'],
  [['readdb', 'db', '-stat'], 'Unknown option -stat. Did you mean -stats?'],
  [['crawl', '--hlep'], 'Unknown option --hlep. Did you mean --help?'],
] as const) {
  test(`did you mean: nutch ${argv.join(' ')} exits 2 suggesting the near name`, async (t) => {
    const r = await runNutch([...argv], { cwd: tempDir(t) });
    assert.equal(r.code, 2);
    assert.ok(r.stderr.includes(suggestion), r.stderr);
    assert.equal(r.stdout, '');
  });
}

test('no suggestion when nothing is near (a different word, not a typo)', async (t) => {
  const cwd = tempDir(t);
  const command = await runNutch(['frobnicate'], { cwd });
  assert.equal(command.code, 2);
  assert.match(command.stderr, /^Unknown command "frobnicate".\n/);
  const option = await runNutch(['crawl', '--bogus', 'dir', '1'], { cwd });
  assert.match(option.stderr, /Unknown option --bogus\.\n/);
});
