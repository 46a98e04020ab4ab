/**
 * `nutch normalizerchecker` as a real child process (cwd a temp dir) over every URL normalizer plugin:
 * plain stdin mode (one output line per input line, empty when dropped) and -json (which normalizer
 * changed or dropped the URL).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { spawnNutch } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

interface Case {
  plugin: string;
  files?: Record<string, string>;
  config?: Record<string, unknown>;
  lines: [string, string | null][];
}

const cases: Case[] = [
  {
    plugin: 'urlnormalizer-basic',
    lines: [
      ['HTTP://Foo.Com:80/a/./b/../c.html#top', 'http://foo.com/a/c.html'],
      ['http://foo.com/%66oo%7e', 'http://foo.com/foo~'],
      ['http://a..b/', null],
      ['no scheme', null],
      ['http://foo.com/ok', 'http://foo.com/ok'],
    ],
  },
  {
    plugin: 'urlnormalizer-regex',
    lines: [
      ['http://foo.com/a;jsessionid=1E6FEC0D?x=1', 'http://foo.com/a?x=1'],
      ['http://foo.com//a//b?', 'http://foo.com/a/b'],
      ['http://foo.com/plain', 'http://foo.com/plain'],
    ],
  },
  {
    plugin: 'urlnormalizer-pass',
    lines: [['HTTP://Foo.com//x#y', 'HTTP://Foo.com//x#y']],
  },
  {
    plugin: 'urlnormalizer-protocol',
    files: { 'protocols.txt': 'example.io\thttps\n*.example.com https\n' },
    lines: [
      ['http://example.io/a', 'https://example.io/a'],
      ['http://www.example.com/', 'https://www.example.com/'],
      ['http://example.io:8080/', 'http://example.io:8080/'],
      ['http://other.org/', 'http://other.org/'],
    ],
  },
  {
    plugin: 'urlnormalizer-host',
    files: { 'host-urlnormalizer.txt': 'example.org www.example.org\n*.example.com example.com\n' },
    lines: [
      ['http://example.org/p', 'http://www.example.org/p'],
      ['http://a.b.example.com/x', 'http://example.com/x'],
      ['http://other.org/', 'http://other.org/'],
    ],
  },
  {
    plugin: 'urlnormalizer-querystring',
    lines: [
      ['http://x.com/?c=d&a=b', 'http://x.com/?a=b&c=d'],
      ['http://x.com/?a=1', 'http://x.com/?a=1'],
    ],
  },
  {
    plugin: 'urlnormalizer-slash',
    files: { 'slashes.txt': 'www.example.org +\nwww.example.net -\n' },
    lines: [
      ['http://www.example.org/page', 'http://www.example.org/page/'],
      ['http://www.example.net/dir/', 'http://www.example.net/dir'],
      ['http://www.example.org/page.html', 'http://www.example.org/page.html'],
    ],
  },
];

function confDir(t: Parameters<typeof tempDir>[0], c: Case): string {
  const dir = tempDir(t);
  for (const [name, text] of Object.entries(c.files ?? {})) writeFileSync(join(dir, name), text);
  writeFileSync(join(dir, 'nutch-site.json'), JSON.stringify({ 'plugin.includes': c.plugin, ...c.config }));
  return dir;
}

for (const c of cases) {
  test(`normalizerchecker -stdin over ${c.plugin}`, async (t) => {
    const dir = confDir(t, c);
    const r = await spawnNutch(['normalizerchecker', '-stdin'], { cwd: dir, env: { NUTCH_CONF_DIR: dir }, stdin: c.lines.map((l) => l[0]).join('\n') + '\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.split('\n').slice(0, -1), c.lines.map((l) => l[1] ?? ''));
  });

  test(`normalizerchecker -stdin -json over ${c.plugin} names the plugin that changed or dropped each URL`, async (t) => {
    const dir = confDir(t, c);
    const r = await spawnNutch(['normalizerchecker', '-stdin', '-json'], { cwd: dir, env: { NUTCH_CONF_DIR: dir }, stdin: c.lines.map((l) => l[0]).join('\n') + '\n' });
    assert.equal(r.code, 0, r.stderr);
    const records = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { url: string; result: string | null; changedBy: string[]; droppedBy?: string });
    assert.equal(records.length, c.lines.length);
    records.forEach((rec, i) => {
      const [input, expected] = c.lines[i];
      assert.equal(rec.url, input);
      assert.equal(rec.result, expected);
      if (expected === null) assert.equal(rec.droppedBy, c.plugin);
      else assert.deepEqual(rec.changedBy, expected === input ? [] : [c.plugin], input);
    });
  });
}

test('normalizerchecker with the default configuration runs basic, regex and pass in order', async (t) => {
  const dir = tempDir(t);
  const input = ['HTTP://Foo.com:80/a/../b;jsessionid=X?&x=1#f', 'http://a..b/', 'http://x.com/%7e//y?', 'http://x.com/'];
  const r = await spawnNutch(['normalizerchecker', '-stdin', '-json'], { cwd: dir, env: { NUTCH_CONF_DIR: dir }, stdin: input.join('\n') });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n').map((l) => JSON.parse(l)), [
    { url: input[0], result: 'http://foo.com/b?x=1', changedBy: ['urlnormalizer-basic', 'urlnormalizer-regex'] },
    { url: input[1], result: null, changedBy: [], droppedBy: 'urlnormalizer-basic' },
    { url: input[2], result: 'http://x.com/~/y', changedBy: ['urlnormalizer-basic', 'urlnormalizer-regex'] },
    { url: input[3], result: 'http://x.com/', changedBy: [] },
  ]);
});

test('normalizerchecker -normalizer and -scope select one normalizer and a scope\'s rules', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'scope.xml'), '<regex-normalize><regex><pattern>^http:</pattern><substitution>https:</substitution></regex></regex-normalize>');
  const env = { NUTCH_CONF_DIR: dir };
  const one = await spawnNutch(['normalizerchecker', '-normalizer', 'urlnormalizer-basic', 'HTTP://X.com//a?'], { cwd: dir, env });
  assert.equal(one.code, 0, one.stderr);
  assert.equal(one.stdout, 'http://x.com/a?\n');
  const scoped = await spawnNutch(['normalizerchecker', '-D', 'urlnormalizer.regex.file.fetcher=scope.xml', '-scope', 'fetcher', '-stdin'], { cwd: dir, env, stdin: 'HTTP://X.com//a?\n' });
  assert.equal(scoped.code, 0, scoped.stderr);
  assert.equal(scoped.stdout, 'https://x.com/a?\n');
});

test('normalizerchecker streams many lines, one output line each', async (t) => {
  const dir = tempDir(t);
  const n = 20000;
  const lines = Array.from({ length: n }, (_, i) => (i % 7 === 0 ? `http://bad..host${i}/` : `HTTP://Host${i % 50}.Example.com/p/${i}/../q?b=${i}&a=1#f`));
  const r = await spawnNutch(['normalizerchecker', '-stdin'], { cwd: dir, env: { NUTCH_CONF_DIR: dir }, stdin: lines.join('\n') + '\n' });
  assert.equal(r.code, 0, r.stderr);
  const out = r.stdout.split('\n').slice(0, -1);
  assert.equal(out.length, n);
  assert.equal(out[0], '');
  assert.equal(out[1], 'http://host1.example.com/p/q?b=1&a=1');
});

test('normalizerchecker reports a broken regex-normalize.xml with file and line and exits 2 or 3', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'regex-normalize.xml'), '<regex-normalize>\n<regex>\n<pattern>(a</pattern><substitution/></regex>\n</regex-normalize>\n');
  const r = await spawnNutch(['normalizerchecker', '-stdin'], { cwd: dir, env: { NUTCH_CONF_DIR: dir }, stdin: 'http://a.com/\n' });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /regex-normalize\.xml:3: invalid regular expression/);
});
