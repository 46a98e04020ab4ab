/**
 * `nutch filterchecker` as a real child process over every urlfilter-* plugin: stdin mode
 * (`+url`/`-url` lines, as Nutch's URLFilterChecker), `-json` naming the filter that rejected a URL,
 * `-filterName` by plugin id or Nutch class name, and a 100,000-line stream whose first answers
 * arrive before stdin is closed (the checker never holds its input in memory).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { runNutch, spawnNutch } from '../helpers/cli.js';
import { projectRoot, tempDir, writeFile } from '../helpers/temp-dir.js';

const ALL_FILTERS = 'urlfilter-(regex|prefix|suffix|domain|domaindenylist|validator|fast)';

function confDir(t: Parameters<typeof tempDir>[0]): string {
  const dir = tempDir(t);
  writeFile(join(dir, 'domain-urlfilter.txt'), 'apache.org\nco.uk\n');
  writeFile(join(dir, 'domaindenylist-urlfilter.txt'), 'example.net\n');
  writeFile(join(dir, 'fast-urlfilter.txt'), 'Domain apache.org\n  DenyPath ^/private/\n');
  writeFile(join(dir, 'nutch-site.json'), { 'plugin.includes': ALL_FILTERS });
  return dir;
}

const INPUT = [
  'http://nutch.apache.org/',
  'http://nutch.apache.org/logo.gif',
  'http://www.example.net/page.html',
  'mailto:dev@nutch.apache.org',
  'http://nutch.apache.org/private/x.html',
  'http://localhost/',
  'www.apache.org/no-scheme',
  'https://www.bbc.co.uk/news?id=1',
];

/** Per plugin: the expected +/- for each INPUT line, with the conf above. */
const EXPECTED: Record<string, string> = {
  'urlfilter-regex': '+-+-++--',
  'urlfilter-prefix': '+++-++-+',
  'urlfilter-suffix': '+-++++-+',
  'urlfilter-domain': '++--+--+',
  'urlfilter-domaindenylist': '++--++-+',
  'urlfilter-validator': '+++-+--+',
  'urlfilter-fast': '++++-+-+',
};

describe('filterchecker -stdin over each URL filter plugin (child process)', () => {
  for (const [id, signs] of Object.entries(EXPECTED)) {
    test(`-filterName ${id}`, async (t) => {
      const cwd = confDir(t);
      const r = await spawnNutch(['filterchecker', '-stdin', '-filterName', id], { cwd, env: { NUTCH_CONF_DIR: cwd }, stdin: INPUT.join('\n') + '\n' });
      assert.equal(r.code, 0, r.stderr);
      const expected = INPUT.map((u, i) => `${signs[i]}${u}`);
      assert.deepEqual(r.stdout.trimEnd().split('\n'), expected);
    });
  }

  test('-filterName takes the Nutch class name too', async (t) => {
    const cwd = confDir(t);
    const r = await runNutch(['filterchecker', '-stdin', '-filterName', 'org.apache.nutch.urlfilter.suffix.SuffixURLFilter'], { cwd, env: { NUTCH_CONF_DIR: cwd }, stdin: 'http://a.com/x.png\nhttp://a.com/x.html\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '-http://a.com/x.png\n+http://a.com/x.html\n');
  });

  test('URLs as arguments instead of stdin', async (t) => {
    const cwd = confDir(t);
    const r = await runNutch(['filterchecker', '-filterName', 'urlfilter-validator', 'http://www.apache.org/', 'http://localhost/'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '+http://www.apache.org/\n-http://localhost/\n');
  });
});

describe('filterchecker -json', () => {
  test('whole chain: one object per line naming the plugin that rejected the URL', async (t) => {
    const cwd = confDir(t);
    const r = await spawnNutch(['filterchecker', '-stdin', '-json'], { cwd, env: { NUTCH_CONF_DIR: cwd }, stdin: INPUT.join('\n') + '\n' });
    assert.equal(r.code, 0, r.stderr);
    const rows = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { url: string; accepted: boolean; result: string | null; rejectedBy?: string });
    assert.equal(rows.length, INPUT.length);
    assert.deepEqual(rows.map((x) => x.url), INPUT);
    // Every plugin is in the chain; a URL passes only if every plugin accepts it.
    const acceptedByAll = INPUT.map((_, i) => Object.values(EXPECTED).every((s) => s[i] === '+'));
    assert.deepEqual(rows.map((x) => x.accepted), acceptedByAll);
    assert.deepEqual(acceptedByAll, [true, false, false, false, false, false, false, false]);
    for (const row of rows) {
      if (row.accepted) {
        assert.equal(row.result, row.url);
        assert.equal(row.rejectedBy, undefined);
      } else {
        assert.equal(row.result, null);
        assert.match(row.rejectedBy ?? '', /^urlfilter-/);
        const idx = INPUT.indexOf(row.url);
        assert.equal(EXPECTED[row.rejectedBy!][idx], '-', `${row.rejectedBy} named as the rejecter of ${row.url} but accepts it`);
      }
    }
  });

  for (const id of Object.keys(EXPECTED)) {
    test(`-json -filterName ${id} (in-process CLI)`, async (t) => {
      const cwd = confDir(t);
      const r = await runNutch(['filterchecker', '-stdin', '-json', '-filterName', id], { cwd, env: { NUTCH_CONF_DIR: cwd }, stdin: INPUT.join('\n') + '\n' });
      assert.equal(r.code, 0, r.stderr);
      const rows = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { accepted: boolean; rejectedBy?: string });
      assert.deepEqual(rows.map((x) => (x.accepted ? '+' : '-')).join(''), EXPECTED[id]);
      for (const row of rows) if (!row.accepted) assert.equal(row.rejectedBy, id);
    });
  }
});

describe('filterchecker errors', () => {
  test('a rule file with an invalid regex: non-zero exit, message names file and line', async (t) => {
    const cwd = confDir(t);
    writeFile(join(cwd, 'regex-urlfilter.txt'), '+^http\n-(unclosed\n');
    const r = await spawnNutch(['filterchecker', '-stdin', '-filterName', 'urlfilter-regex'], { cwd, env: { NUTCH_CONF_DIR: cwd }, stdin: 'http://a.com/\n' });
    assert.ok(r.code === 2 || r.code === 3, `exit ${r.code}`);
    assert.match(r.stderr, /NUTCH_RULE_FILE_INVALID/);
    assert.match(r.stderr, /regex-urlfilter\.txt:2: /);
    assert.equal(r.stdout, '');
  });

  test('a missing rule file: exit 2 with NUTCH_CONFIG_FILE_NOT_FOUND', async (t) => {
    const cwd = confDir(t);
    const r = await runNutch(['filterchecker', '-stdin', '-filterName', 'urlfilter-prefix', '-D', 'urlfilter.prefix.file=nowhere.txt'], { cwd, env: { NUTCH_CONF_DIR: cwd }, stdin: 'http://a.com/\n' });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /NUTCH_CONFIG_FILE_NOT_FOUND/);
    assert.match(r.stderr, /nowhere\.txt/);
  });

  test('malformed lines are answered with "-", never a crash', async (t) => {
    const cwd = confDir(t);
    const lines = ['', 'http://', 'http://exa mple.com/', 'http://a.com/%zz', 'http://a.com/\u0001', 'http://example.com/' + 'x'.repeat(100 * 1024)];
    const r = await spawnNutch(['filterchecker', '-stdin', '-D', 'plugin.includes=urlfilter-(regex|validator)'], { cwd, env: { NUTCH_CONF_DIR: cwd }, stdin: lines.join('\n') + '\n' });
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout.split('\n').slice(0, -1);
    assert.equal(out.length, lines.length);
    for (const line of out) assert.equal(line[0], '-', line.slice(0, 80));
  });
});

describe('filterchecker streaming', () => {
  test('100,000 stdin lines: first answers arrive before stdin ends, every line answered in order', async (t) => {
    const cwd = confDir(t);
    const urls = Array.from({ length: 100_000 }, (_, i) => (i % 10 === 0 ? `http://host${i % 97}.example.com/img${i}.gif` : `http://host${i % 97}.example.com/page/${i}.html`));
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(projectRoot, 'sdk', 'cli', 'main.ts'), 'filterchecker', '-stdin', '-filterName', 'urlfilter-regex'], {
      cwd,
      env: { PATH: process.env.PATH, NUTCH_CONF_DIR: cwd },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    t.after(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
    let stdout = '';
    let stderr = '';
    let stdinEnded = false;
    let linesBeforeEnd = -1;
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const firstOutput = new Promise<void>((resolve) => {
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        stdout += c;
        if (!stdinEnded && linesBeforeEnd === -1 && stdout.includes('\n')) {
          linesBeforeEnd = stdout.split('\n').length - 1;
          resolve();
        }
      });
    });
    const closed = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    // First 1,000 lines, then wait for answers while stdin is still open, then the rest.
    child.stdin.write(urls.slice(0, 1000).join('\n') + '\n');
    await Promise.race([firstOutput, closed]);
    assert.ok(linesBeforeEnd > 0, `no output before stdin ended (exit ${child.exitCode}): ${stderr}`);
    for (let i = 1000; i < urls.length; i += 10_000) {
      const chunk = urls.slice(i, i + 10_000).join('\n') + '\n';
      if (!child.stdin.write(chunk)) await new Promise((r) => child.stdin.once('drain', r));
    }
    stdinEnded = true;
    child.stdin.end();
    const code = await closed;
    assert.equal(code, 0, stderr);
    const out = stdout.split('\n');
    out.pop();
    assert.equal(out.length, urls.length);
    for (let i = 0; i < urls.length; i += 997) {
      assert.equal(out[i], `${i % 10 === 0 ? '-' : '+'}${urls[i]}`);
    }
    assert.equal(out.filter((l) => l.startsWith('-')).length, 10_000);
  });
});
