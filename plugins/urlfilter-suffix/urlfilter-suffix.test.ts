import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MALFORMED, filterHarness, loadError, type FilterHarness } from '../../tests/helpers/filter-test-harness.js';

const ID = 'urlfilter-suffix';

describe('urlfilter-suffix with the shipped suffix-urlfilter.txt (+I +P: reject listed suffixes of the path, any case)', () => {
  let h: FilterHarness;
  before(async () => { h = await filterHarness({ id: ID }); });
  after(() => h.close());
  const cases: Array<[string, boolean]> = [
    ['http://example.com/', true],
    ['http://example.com/index.html', true],
    ['http://example.com/a.gif', false],
    ['http://example.com/a.GIF', false],
    ['http://example.com/a.JpEg', false],
    ['http://example.com/a.png', false],
    ['http://example.com/style.css', false],
    ['http://example.com/app.js', false],
    ['http://example.com/app.json', true],
    ['http://example.com/x.tar.gz', false],
    ['http://example.com/x.mp3', false],
    ['http://example.com/x.mp3?q=abc', false], // path only: the query does not hide the suffix
    ['http://example.com/search?q=foo.mp3', true], // path only: a suffix in the query does not count
    ['http://example.com/x.woff2', false],
    ['http://example.com/setup.exe', false],
    ['http://xyz.com', true], // path only: ".com" in the host does not count
    ['http://xyz.com/page.com', false],
    ['http://example.com/x.gif#frag', false],
    ['http://example.com/x.gifx', true],
    ['http://example.com/a.pdf', true],
  ];
  for (const [url, ok] of cases) test(`${ok ? 'accepts' : 'rejects'} ${url}`, () => assert.equal(h.filter(url), ok ? url : null));
  for (const [name, url] of MALFORMED) test(`rejects malformed input: ${name}`, () => assert.equal(h.filter(url), null));
});

describe('urlfilter-suffix modes', () => {
  const table: Array<[string, string, string, boolean]> = [
    ['"-": only listed suffixes pass', '-\n.html\n.htm\n', 'http://a.com/x.html', true],
    ['"-": unlisted suffixes are rejected', '-\n.html\n.htm\n', 'http://a.com/x.php', false],
    ['"-": case-sensitive by default', '-\n.html\n', 'http://a.com/x.HTML', false],
    ['"-I": case-insensitive', '-I\n.html\n', 'http://a.com/x.HTML', true],
    ['"+": listed suffixes are rejected', '+\n.gif\n', 'http://a.com/x.gif', false],
    ['"+": unlisted suffixes pass', '+\n.gif\n', 'http://a.com/x.png', true],
    ['"+": case-sensitive by default', '+\n.gif\n', 'http://a.com/x.GIF', true],
    ['"+I": case-insensitive', '+I\n.gif\n', 'http://a.com/x.GIF', false],
    ['no mode line: accept only listed suffixes', '.html\n', 'http://a.com/x.html', true],
    ['no mode line: reject unlisted', '.html\n', 'http://a.com/x.gif', false],
    ['whole URL by default: the query counts', '+\n.mp3\n', 'http://a.com/x.mp3?q=1', true],
    ['whole URL by default: a suffix in the query counts', '+\n.mp3\n', 'http://a.com/?q=x.mp3', false],
    ['"+P": path only', '+P\n.mp3\n', 'http://a.com/x.mp3?q=1', false],
    ['"+P": path only, suffix in query ignored', '+P\n.mp3\n', 'http://a.com/?q=x.mp3', true],
    ['"+IP" on one line', '+IP\n.MP3\n', 'http://a.com/X.Mp3?q=1', false],
    ['"+I" and "+P" on separate lines combine', '+I\n+P\n.mp3\n', 'http://a.com/X.MP3?x', false],
    ['suffix lines are trimmed', '+\n   .gif   \n', 'http://a.com/x.gif', false],
    ['comments are skipped', '+\n# .gif\n', 'http://a.com/x.gif', true],
    ['the whole URL can be a suffix match', '+\n/\n', 'http://a.com/', false],
    ['"-P" with an empty path', '-P\n/\n', 'http://a.com', false],
  ];
  for (const [name, rules, url, ok] of table) {
    test(name, async () => {
      const h = await filterHarness({ id: ID, config: { 'urlfilter.suffix.rules': rules } });
      try {
        assert.equal(h.filter(url), ok ? url : null);
      } finally {
        await h.close();
      }
    });
  }

  test('the file named by urlfilter.suffix.file is used', async () => {
    const h = await filterHarness({ id: ID, files: { 'only-html.txt': '-\n.html\n' }, config: { 'urlfilter.suffix.file': 'only-html.txt' } });
    try {
      assert.equal(h.filter('http://a.com/x.html'), 'http://a.com/x.html');
      assert.equal(h.filter('http://a.com/x.gif'), null);
    } finally {
      await h.close();
    }
  });

  test('a missing rule file is NUTCH_CONFIG_FILE_NOT_FOUND', async () => {
    const err = await loadError({ id: ID, config: { 'urlfilter.suffix.file': 'missing-suffixes.txt' } });
    assert.equal(err?.code, 'NUTCH_CONFIG_FILE_NOT_FOUND');
  });
});
