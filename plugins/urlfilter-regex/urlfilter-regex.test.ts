import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MALFORMED, filterHarness, loadError, type FilterHarness } from '../../tests/helpers/filter-test-harness.js';

const ID = 'urlfilter-regex';

describe('urlfilter-regex with the shipped regex-urlfilter.txt (Nutch default rules)', () => {
  let h: FilterHarness;
  before(async () => { h = await filterHarness({ id: ID }); });
  after(() => h.close());

  const cases: Array<[string, boolean]> = [
    ['http://example.com/', true],
    ['https://www.apache.org/foo/bar.html', true],
    ['http://nutch.apache.org', true],
    ['http://127.0.0.1:8080/page', true],
    ['https://example.com/doc.pdf', true],
    ['https://example.com/feed.json', true],
    ['https://example.com/image.gifs', true],
    ['https://example.com/gif', true],
    ['file:///etc/passwd', false],
    ['ftp://ftp.example.com/pub/', false],
    ['mailto:someone@example.com', false],
    ['FTP://ftp.example.com/pub/', true],
    ['http://example.com/a.gif', false],
    ['http://example.com/a.GIF', false],
    ['http://example.com/a.Jpg', false],
    ['http://example.com/a.jpeg', false],
    ['http://example.com/a.png', false],
    ['http://example.com/style.css', false],
    ['http://example.com/app.js', false],
    ['http://example.com/APP.JS', false],
    ['http://example.com/a.zip', false],
    ['http://example.com/a.exe', false],
    ['http://example.com/a.tgz', false],
    ['http://example.com/a.mov', false],
    ['http://example.com/a.bmp', false],
    ['http://example.com/a.ico', false],
    ['http://example.com/a.gif/', true],
    ['http://example.com/search?q=nutch', false],
    ['http://example.com/a*b', false],
    ['http://example.com/wow!', false],
    ['http://user@example.com/', false],
    ['http://example.com/a=b', false],
    ['http://example.com/x/y/x/z/x/', false],
    ['http://example.com/foo/a/foo/b/foo/c', false],
    ['http://example.com/x/y/x/z/', true],
    ['http://example.com/a/b/c/d/e/f/', true],
    ['http://example.com/x/x/x/', true],
    ['http://example.com/%E2%82%AC/', true],
    ['https://example.com/caf\u00e9/', true],
    ['https://example.com/' + 'a'.repeat(3000), true],
  ];
  for (const [url, accepted] of cases) {
    test(`${accepted ? 'accepts' : 'rejects'} ${url.length > 80 ? url.slice(0, 60) + `… (${url.length} chars)` : url}`, () => {
      assert.equal(h.filter(url), accepted ? url : null);
    });
  }
  for (const [name, url] of MALFORMED) {
    test(`rejects malformed input: ${name}`, () => assert.equal(h.filter(url), null));
  }
});

describe('urlfilter-regex rule semantics', () => {
  const rules = (text: string) => filterHarness({ id: ID, config: { 'urlfilter.regex.rules': text } });

  const table: Array<[string, string, string, boolean]> = [
    ['first matching rule wins (+ before -)', '+^http://a\\.com/\n-.', 'http://a.com/x', true],
    ['first matching rule wins (- before +)', '-^http://a\\.com/\n+.', 'http://a.com/x', false],
    ['no matching rule rejects', '+^https://', 'http://a.com/', false],
    ['find(), not matches(): pattern found mid-URL', '+apache', 'http://nutch.apache.org/', true],
    ['empty pattern matches everything', '+', 'http://a.com/', true],
    ['leading (?i) makes the whole rule case-insensitive', '-(?i)\\.pdf$\n+.', 'http://a.com/X.PDF', false],
    ['without (?i) case matters', '-\\.pdf$\n+.', 'http://a.com/X.PDF', true],
    ['(?i) in the middle applies to the rest only', '+^http://A(?i)BC\n-.', 'http://Abc', true],
    ['(?i) in the middle: earlier part stays case-sensitive', '+^http://A(?i)BC\n-.', 'http://abc', false],
    ['scoped (?i:…)', '+^http://(?i:www)\\.a\\.com/\n-.', 'http://WWW.a.com/', true],
    ['possessive quantifier does not give back', '+^http://a\\.com/x*+x\n-.', 'http://a.com/xxx', false],
    ['possessive quantifier matches when nothing must be given back', '+^http://a\\.com/x++/\n-.', 'http://a.com/xxx/', true],
    ['atomic group', '+^http://(?>ab|a)b\n-.', 'http://abb', true],
    ['atomic group does not backtrack into the shorter branch', '+^http://(?>a|ab)c\n-.', 'http://abc', false],
    ['\\p{Alpha} is ASCII letters', '+^http://\\p{Alpha}+\\.com/$\n-.', 'http://abc.com/', true],
    ['\\p{Alpha} does not match non-ASCII letters', '+^http://\\p{Alpha}+\\.com/$\n-.', 'http://\u00e9t\u00e9.com/', false],
    ['\\p{L} matches any letter', '+^http://\\p{L}+\\.com/$\n-.', 'http://\u00e9t\u00e9.com/', true],
    ['\\p{IsLatin} script', '+^http://\\p{IsLatin}+\\.com/$\n-.', 'http://\u00e9t\u00e9.com/', true],
    ['\\A and \\z anchors', '+\\Ahttp://a\\.com/\\z\n-.', 'http://a.com/', true],
    ['\\Q…\\E quotes metacharacters', '-\\Q?a=1\\E\n+.', 'http://a.com/x?a=1', false],
    ['\\Q…\\E: the dot is literal', '-\\Q.x\\E\n+.', 'http://a.com/ax', true],
    ['class intersection [a-z&&[^aeiou]]', '+^http://[a-z&&[^aeiou]]+\\.com/\n-.', 'http://xyz.com/', true],
    ['class intersection excludes vowels', '+^http://[a-z&&[^aeiou]]+\\.com/\n-.', 'http://abc.com/', false],
    ['class union [a-c[x-z]]', '+^http://[a-c[x-z]]+/\n-.', 'http://abxz/', true],
    ['\\s is ASCII whitespace only in Java', '-\\s\n+.', 'http://a.com/\u00a0', true],
    ['backreference to a repeated segment', '-(/[^/]+)\\1\n+.', 'http://a.com/ab/ab', false],
    ['octal escape \\0101 is A', '+^http://\\0101\n-.', 'http://A', true],
    ['\\x{…} escape', '+\\x{2F}\\x{2F}\n-.', 'http://a', true],
    ['comments and lines starting with a space are skipped', '# comment\n +nothing\n-.', 'http://a.com/', false],
    ['blank lines are skipped', '\n\n+a\n\n', 'http://a.com/', true],
    ['(?x) comments mode', '+(?x) ^http: // a \\.com # trailing comment\n-.', 'http://a.com/', true],
  ];
  for (const [name, text, url, accepted] of table) {
    test(name, async () => {
      const h = await rules(text);
      try {
        assert.equal(h.filter(url), accepted ? url : null);
      } finally {
        await h.close();
      }
    });
  }

  test('host and domain blocks (> host … <) as Nutch NUTCH-1838', async () => {
    const h = await filterHarness({
      id: ID,
      files: { 'regex-urlfilter.txt': '# sample\n> www.example.org\n-skip\n<\n\n> www.example.com\n+skip\n<\n\n> apache.org\n-private\n<\n-.\n' },
    });
    try {
      assert.equal(h.filter('http://www.example.org/skip-me-now'), null);
      assert.equal(h.filter('http://www.example.com/noone-can-skip-me'), 'http://www.example.com/noone-can-skip-me');
      assert.equal(h.filter('http://www.example.nl/i-am-filtered'), null);
      assert.equal(h.filter('http://nutch.apache.org/private/x'), null);
    } finally {
      await h.close();
    }
  });

  test('CRLF rule files and a byte order mark load', async () => {
    const h = await filterHarness({ id: ID, files: { 'regex-urlfilter.txt': '\uFEFF# c\r\n-\\.gif$\r\n+.\r\n' } });
    try {
      assert.equal(h.filter('http://a.com/x.gif'), null);
      assert.equal(h.filter('http://a.com/x.html'), 'http://a.com/x.html');
    } finally {
      await h.close();
    }
  });

  test('urlfilter.regex.rules takes precedence over the file', async () => {
    const h = await filterHarness({ id: ID, files: { 'regex-urlfilter.txt': '-.\n' }, config: { 'urlfilter.regex.rules': '+.' } });
    try {
      assert.equal(h.filter('http://a.com/'), 'http://a.com/');
    } finally {
      await h.close();
    }
  });

  test('the file named by urlfilter.regex.file is used', async () => {
    const h = await filterHarness({ id: ID, files: { 'my-rules.txt': '+^https:\n' }, config: { 'urlfilter.regex.file': 'my-rules.txt' } });
    try {
      assert.equal(h.filter('https://a.com/'), 'https://a.com/');
      assert.equal(h.filter('http://a.com/'), null);
    } finally {
      await h.close();
    }
  });

  test('the loop rule stays fast on long URLs (no catastrophic backtracking)', async () => {
    const h = await filterHarness({ id: ID });
    try {
      const url = 'http://example.com' + '/abcdefgh'.repeat(400);
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < 20; i++) h.filter(url);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      assert.ok(ms < 15_000, `20 runs took ${ms} ms`); // linear vs exponential, not a speed target
    } finally {
      await h.close();
    }
  });
});

describe('urlfilter-regex with the older Nutch 1.x default rules (crawl-era regex-urlfilter.txt)', () => {
  const OLD_DEFAULT = [
    '# skip file: ftp: and mailto: urls',
    '-^(file|ftp|mailto):',
    '',
    "# skip image and other suffixes we can't yet parse",
    '-\\.(gif|GIF|jpg|JPG|png|PNG|ico|ICO|css|sit|eps|wmf|zip|ppt|mpg|xls|gz|rpm|tgz|mov|MOV|exe|jpeg|JPEG|bmp|BMP)$',
    '',
    '# skip URLs containing certain characters as probable queries, etc.',
    '-[?*!@=]',
    '',
    '# skip URLs with slash-delimited segment that repeats 3+ times, to break loops',
    '-.*(/.+?)/.*?\\1/.*?\\1/',
    '',
    '# accept anything else',
    '+.',
  ].join('\n');
  let h: FilterHarness;
  before(async () => { h = await filterHarness({ id: ID, files: { 'regex-urlfilter.txt': OLD_DEFAULT } }); });
  after(() => h.close());
  const cases: Array<[string, boolean]> = [
    ['http://example.com/', true],
    ['http://example.com/a.GIF', false],
    ['http://example.com/a.Gif', true], // that file listed case variants explicitly
    ['mailto:a@b.c', false],
    ['http://example.com/?q=1', false],
    ['http://example.com/a/b/a/c/a/d', false],
    ['http://example.com/a/b/c/d/e', true],
  ];
  for (const [url, accepted] of cases) {
    test(`${accepted ? 'accepts' : 'rejects'} ${url}`, () => assert.equal(h.filter(url), accepted ? url : null));
  }
  test('its lazy loop rule stays fast on long URLs', () => {
    const url = 'http://example.com' + '/abcdefgh'.repeat(300);
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 5; i++) assert.equal(h.filter(url), null); // the segment repeats
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    assert.ok(ms < 15_000, `5 runs took ${ms} ms`); // linear vs exponential, not a speed target
  });
});

describe('urlfilter-regex load errors', () => {
  const bad: Array<[string, string, number, RegExp]> = [
    ['an invalid regex', '+ok\n# comment\n-[a-\n', 3, /Unclosed character class/],
    ['an unbalanced group', '-(abc\n', 1, /Unclosed group/],
    ['a dangling quantifier', '\n-*abc\n', 2, /Dangling meta character/],
    ['an illegal repetition', '-a{x}\n', 1, /Illegal repetition/],
    ['a Unicode block JavaScript lacks', '+.\n-\\p{InGreek}\n', 2, /Unicode blocks/],
    ['\\G', '-\\Gabc\n', 1, /\\G/],
    ['a backreference to an optional group', '-(a)?\\1\n', 1, /optional group/],
    ['an unknown escape', '-\\y\n', 1, /escape sequence/],
    ['an invalid first character', '+a\n*b\n', 2, /invalid first character/],
    ['a tab-indented rule', '\t+a\n', 1, /invalid first character/],
  ];
  for (const [name, text, line, pattern] of bad) {
    test(`${name} fails the load naming file and line ${line}`, async () => {
      const err = await loadError({ id: ID, files: { 'regex-urlfilter.txt': text } });
      assert.ok(err, 'expected the plugin to fail loading');
      assert.equal(err.code, 'NUTCH_RULE_FILE_INVALID');
      assert.match(err.message, new RegExp(`regex-urlfilter\\.txt:${line}: `));
      assert.match(err.message, pattern);
    });
  }

  test('inline rules name the property in errors', async () => {
    const err = await loadError({ id: ID, config: { 'urlfilter.regex.rules': '+a\n-(b' } });
    assert.equal(err?.code, 'NUTCH_RULE_FILE_INVALID');
    assert.match(err!.message, /urlfilter\.regex\.rules \(inline rules\):2: /);
  });

  test('a missing rule file is NUTCH_CONFIG_FILE_NOT_FOUND naming the file and property', async () => {
    const err = await loadError({ id: ID, config: { 'urlfilter.regex.file': 'no-such-rules.txt' } });
    assert.equal(err?.code, 'NUTCH_CONFIG_FILE_NOT_FOUND');
    assert.match(err!.message, /no-such-rules\.txt/);
    assert.match(err!.message, /urlfilter\.regex\.file/);
  });

  test('loads under its Nutch class name in urlfilter.order', async () => {
    const h = await filterHarness({ id: ID, config: { 'urlfilter.order': 'org.apache.nutch.urlfilter.regex.RegexURLFilter' } });
    try {
      assert.equal(h.filter('http://a.com/'), 'http://a.com/');
    } finally {
      await h.close();
    }
  });
});
