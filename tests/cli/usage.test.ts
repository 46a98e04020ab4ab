/** Nutch-style command lines: single-dash long options, repeated -D, usage errors exit 2, unknown commands exit 2. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { intOption, parseArgs } from '../../sdk/cli/args.js';
import { runNutch, spawnNutch } from '../helpers/cli.js';
import { pluginFixture, tempDir } from '../helpers/temp-dir.js';

const usage = 'Usage: nutch generate <crawldb> <segments_dir> [-topN N] [-noFilter]';
const spec = { flags: ['-noFilter', '-force'], values: ['-topN', '--num-threads'], multi: ['-filter'] };

test('-topN 5, flags, repeated -D k=v / -Dk=v, positionals in order', () => {
  const a = parseArgs(['crawl/crawldb', '-D', 'http.agent.name=bot', 'crawl/segments', '-topN', '5', '-Dgenerate.max.count=10', '-noFilter'], spec, usage);
  assert.deepEqual(a.positional, ['crawl/crawldb', 'crawl/segments']);
  assert.equal(a.values.get('-topN'), '5');
  assert.equal(intOption(a, '-topN', 0, usage), 5);
  assert.ok(a.flags.has('-noFilter'));
  assert.deepEqual(a.defines, { 'http.agent.name': 'bot', 'generate.max.count': '10' });
});

test('-topN is one option, not a group of short flags; --long=value and repeated options collect', () => {
  const a = parseArgs(['-topN', '7', '--num-threads=4', '-filter', 'a', '-filter', 'b'], spec, usage);
  assert.equal(a.values.get('-topN'), '7');
  assert.equal(a.values.get('--num-threads'), '4');
  assert.deepEqual(a.multi.get('-filter'), ['a', 'b']);
  assert.deepEqual(parseArgs(['-5'], spec, usage).positional, ['-5'], 'a negative number is a value, not an option');
});

for (const [argv, pattern] of [
  [['-topN'], /Option -topN needs a value/],
  [['-top', '5'], /Unknown option -top/],
  [['-t'], /Unknown option -t/],
] as const) {
  test(`usage error ${JSON.stringify(argv)}: NUTCH_USAGE with the usage text`, () => {
    assert.throws(() => parseArgs(argv, spec, usage), (err: any) => err.code === 'NUTCH_USAGE' && pattern.test(err.message) && err.message.includes(usage));
  });
}

test('-topN with a non-integer is a usage error', () => {
  assert.throws(() => intOption(parseArgs(['-topN', 'five'], spec, usage), '-topN', 0, usage), (err: any) => err.code === 'NUTCH_USAGE' && /-topN expects an integer, got "five"/.test(err.message));
});

test('no command prints the command list and exits 2; help exits 0', async (t) => {
  const cwd = tempDir(t);
  const none = await runNutch([], { cwd });
  assert.equal(none.code, 2);
  assert.match(none.stdout, /Usage: nutch COMMAND/);
  for (const name of ['plugin', 'showproperties', 'filterchecker', 'normalizerchecker']) assert.match(none.stdout, new RegExp(`^  ${name} +\\S`, 'm'));
  assert.equal((await runNutch(['help'], { cwd })).code, 0);
});

test('an unknown command exits 2 naming it', async (t) => {
  const r = await runNutch(['fetchh'], { cwd: tempDir(t) });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Unknown command "fetchh"/);
});

test('usage and configuration errors exit 2 with the code; a bad -D too', async (t) => {
  const cwd = tempDir(t);
  const bad = await runNutch(['plugin', 'list', '-bogus'], { cwd });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^plugin: NUTCH_USAGE: Unknown option -bogus/);
  const define = await runNutch(['showproperties', '-D', 'novalue'], { cwd });
  assert.equal(define.code, 2);
  assert.match(define.stderr, /NUTCH_CONFIG_BAD_DEFINE: -D novalue: expected key=value/);
  const typed = await runNutch(['showproperties', '-Dhttp.timeout=soon'], { cwd });
  assert.equal(typed.code, 2);
  assert.match(typed.stderr, /NUTCH_CONFIG_INVALID_VALUE: Invalid value for property "http\.timeout" \(set by -D on the command line\)/);
});

test('the real binary (child process): exit codes and streams', async (t) => {
  const cwd = tempDir(t);
  const r = await spawnNutch(['nosuchcommand'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Unknown command "nosuchcommand"/);
  const ok = await spawnNutch(['showproperties', '-D', 'http.agent.name=child-bot', '-json'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  assert.equal(ok.code, 0, ok.stderr);
  const row = (JSON.parse(ok.stdout) as { name: string; value: unknown; layer: string }[]).find((p) => p.name === 'http.agent.name');
  assert.deepEqual([row?.value, row?.layer], ['child-bot', 'cli']);
});

test('checkers keep Nutch\'s stdin mode: one output line per input line (normalizerchecker: empty when dropped)', async (t) => {
  const cwd = tempDir(t);
  const defines = ['-D', `plugin.folders=${pluginFixture('normalizers')}`, '-D', 'plugin.includes=fx-norm-lower|fx-norm-drop', '-D', 'urlnormalizer.order=fx-norm-lower fx-norm-drop'];
  const n = await runNutch(['normalizerchecker', ...defines, '-scope', 'inject', '-stdin'], { cwd, stdin: 'HTTP://A.example/X\nhttp://a.example/drop\nhttp://b.example/\n' });
  assert.equal(n.code, 0, n.stderr);
  assert.equal(n.stdout, 'http://a.example/x\n\nhttp://b.example/\n');
  const one = await runNutch(['normalizerchecker', ...defines, '-normalizer', 'fx-norm-drop', 'http://a.example/DROP', 'HTTP://KEEP/'], { cwd });
  assert.equal(one.stdout, 'http://a.example/DROP\nHTTP://KEEP/\n', 'only the named normaliser runs (fx-norm-drop is case-sensitive)');
  const f = await runNutch(['filterchecker', '-D', `plugin.folders=${pluginFixture('matching')}`, '-D', 'plugin.includes=fx-urlfilter-regex', '-stdin'], { cwd, stdin: 'http://x/fx-urlfilter-regex/a\nhttp://x/ok\n' });
  assert.equal(f.stdout, '-http://x/fx-urlfilter-regex/a\n+http://x/ok\n');
  const unknown = await runNutch(['filterchecker', '-filterName', 'nope', 'http://x/'], { cwd });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /NUTCH_EXTENSION_NOT_FOUND: No active URLFilter extension "nope"/);
});
