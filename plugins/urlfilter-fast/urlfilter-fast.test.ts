import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MALFORMED, filterHarness, loadError, type FilterHarness } from '../../tests/helpers/filter-test-harness.js';

const ID = 'urlfilter-fast';

// In the spirit of Nutch's sample/fast-urlfilter-test.txt.
const RULES = `
# Deny everything from *.example.com and example.com
Domain example.com
  DenyPath .*

Host www.example.org
  DenyPath /path/to/be/excluded
  DenyPath (?i)%7c            # a pipe in the path, any case of the escape

Domain example.org
  DenyPathQuery /resource/.*?action=exclude
  DenyPath ^/private/

Domain co.uk
  DenyPath ^/cgi-bin/

Domain org
  DenyPath \\.exe$

Host shop.example.net
  DenyPathQuery \\?sessionid=

Domain .
  DenyPath (/[^/]+)/[^/]+\\1/[^/]+\\1/
`;

describe('urlfilter-fast', () => {
  let h: FilterHarness;
  before(async () => { h = await filterHarness({ id: ID, files: { 'fast-urlfilter.txt': RULES } }); });
  after(() => h.close());
  const cases: Array<[string, boolean]> = [
    ['http://example.com/', false],
    ['http://www.example.com/index.html', false],
    ['https://a.b.example.com/x', false],
    ['http://notexample.com/', true],
    ['http://example.com.au/', true],
    ['http://www.example.org/path/to/be/excluded', false],
    ['http://www.example.org/path/to/be/excluded/too.html', false],
    ['http://www.example.org/path/to/be/', true],
    ['http://www.example.org/a%7Cb', false],
    ['http://www.example.org/a%7cb', false],
    ['http://other.example.org/path/to/be/excluded', true], // Host rules are for that host only
    ['http://www.example.org/resource/x?action=exclude', false],
    ['http://www.example.org/resource/x?action=include', true],
    ['http://www.example.org/resource/action=exclude', false],
    ['http://example.org/resource/x?action=exclude', false],
    ['http://www.example.org/private/data', false],
    ['http://www.example.org/public/private/data', true],
    ['http://www.example.org/x?/private/', true], // DenyPath does not see the query
    ['http://www.bbc.co.uk/cgi-bin/x', false],
    ['http://www.bbc.co.uk/news/', true],
    ['http://www.apache.org/setup.exe', false],
    ['http://www.apache.org/setup.exe?x=1', false],
    ['http://www.apache.com/setup.exe', true],
    ['http://shop.example.net/cart?sessionid=1', false],
    ['http://shop.example.net/cart?id=1', true],
    ['http://www.example.net/cart?sessionid=1', true],
    ['http://site.test/a/x/a/y/a/z', false],
    ['http://site.test/a/x/a/y/', true],
    ['http://WWW.EXAMPLE.COM/', false],
    ['http://www.example.com:8080/', false],
    ['file:///etc/hosts', true], // no host: global rules only
    ['file:///a/x/a/y/a/z', false],
    ['mailto:someone@example.com', true], // no host: global rules only
  ];
  for (const [url, ok] of cases) test(`${ok ? 'accepts' : 'rejects'} ${url}`, () => assert.equal(h.filter(url), ok ? url : null));
  for (const [name, url] of MALFORMED) test(`rejects malformed input: ${name}`, () => assert.equal(h.filter(url), null));
});

// Nutch's FastURLFilter length limits (urlfilter.fast.url.*): checked before any rule, -1 = no limit
describe('urlfilter-fast length limits', () => {
  const limits: Array<[string, Record<string, unknown>, Array<[string, boolean]>]> = [
    ['no limits by default (-1)', {}, [
      ['http://a.com/' + 'p'.repeat(3000) + '?' + 'q'.repeat(1000), true],
    ]],
    ['urlfilter.fast.url.max.length = 25', { 'urlfilter.fast.url.max.length': 25 }, [
      ['http://a.com/123456789012', true], // 25 characters
      ['http://a.com/1234567890123', false], // 26
      ['http://a.com/?q=1#fragment', false], // the whole string counts, fragment included, as Nutch
      ['http://a.com/', true],
    ]],
    ['urlfilter.fast.url.path.max.length = 10', { 'urlfilter.fast.url.path.max.length': 10 }, [
      ['http://a.com/123456789', true], // path "/123456789" is 10
      ['http://a.com/1234567890', false], // 11
      ['http://a.com/12345?' + 'q'.repeat(100), true], // the query is not the path
      ['http://a.com/12345#' + 'f'.repeat(100), true], // nor is the fragment
      ['http://a.com', true], // empty path
      ['http://averyveryverylonghostname.example.com/', true], // nor the host
    ]],
    ['urlfilter.fast.url.query.max.length = 5', { 'urlfilter.fast.url.query.max.length': 5 }, [
      ['http://a.com/x?a=123', true], // "a=123" is 5
      ['http://a.com/x?a=1234', false], // 6
      ['http://a.com/' + 'p'.repeat(500), true], // no query at all
      ['http://a.com/x?', true], // empty query
      ['http://a.com/x?a=1#' + 'f'.repeat(50), true], // the fragment is not the query
    ]],
    ['a path of at most 1 and no query', { 'urlfilter.fast.url.path.max.length': 1, 'urlfilter.fast.url.query.max.length': 0 }, [
      ['http://a.com/', true],
      ['http://a.com', true],
      ['http://a.com/?', true],
      ['http://a.com/?a', false],
      ['http://a.com/a', false],
    ]],
  ];
  for (const [name, config, cases] of limits) {
    test(name, async () => {
      const h = await filterHarness({ id: ID, config });
      try {
        for (const [url, ok] of cases) assert.equal(h.filter(url), ok ? url : null, `${ok ? 'accepts' : 'rejects'} ${url.slice(0, 60)}`);
      } finally {
        await h.close();
      }
    });
  }

  test('limits run before the rules and together with them', async () => {
    const h = await filterHarness({ id: ID, config: { 'urlfilter.fast.url.path.max.length': 20, 'urlfilter.fast.rules': 'Domain a.com\n  DenyPath ^/private/\n' } });
    try {
      assert.equal(h.filter('http://a.com/private/x'), null);
      assert.equal(h.filter('http://b.com/private/x'), 'http://b.com/private/x');
      assert.equal(h.filter('http://b.com/' + 'x'.repeat(20)), null);
    } finally {
      await h.close();
    }
  });

  test('a limit below -1 is a configuration error naming the property', async () => {
    const err = await loadError({ id: ID, config: { 'urlfilter.fast.url.query.max.length': -2 } });
    assert.equal(err?.code, 'NUTCH_CONFIG_INVALID_VALUE');
    assert.match(err!.message, /urlfilter\.fast\.url\.query\.max\.length/);
  });
});

describe('urlfilter-fast rule file', () => {
  test('the shipped fast-urlfilter.txt has no rules: every URL passes', async () => {
    const h = await filterHarness({ id: ID });
    try {
      assert.equal(h.filter('http://www.example.com/x'), 'http://www.example.com/x');
    } finally {
      await h.close();
    }
  });

  test('DenyPath .? denies the whole block without a regex', async () => {
    const h = await filterHarness({ id: ID, config: { 'urlfilter.fast.rules': 'Host a.com\n  DenyPath .?\n' } });
    try {
      assert.equal(h.filter('http://a.com/'), null);
      assert.equal(h.filter('http://b.a.com/'), 'http://b.a.com/');
    } finally {
      await h.close();
    }
  });

  test('a rule before any Host/Domain line is ignored with a warning naming the line', async () => {
    const h = await filterHarness({ id: ID, files: { 'fast-urlfilter.txt': '# x\nDenyPath .*\nDomain a.com\n DenyPath /x\n' } });
    try {
      assert.equal(h.filter('http://b.com/x'), 'http://b.com/x');
      assert.equal(h.filter('http://a.com/x'), null);
      assert.ok(h.warnings().some((w) => /fast-urlfilter\.txt:2: rule before any Host or Domain line/.test(w)));
    } finally {
      await h.close();
    }
  });

  const bad: Array<[string, string, number, RegExp]> = [
    ['an invalid regex', 'Domain a.com\n  DenyPath (abc\n', 2, /Unclosed group/],
    ['an unknown directive', 'Domain a.com\n  AllowPath /x\n', 2, /expected Host/],
    ['a Host line without a name', '\nHost\n', 2, /needs a name/],
    ['a DenyPath without a regex', 'Domain a.com\nDenyPath\n', 2, /needs a regular expression/],
    ['a Java construct JavaScript lacks', 'Domain .\n DenyPath \\p{InBasicLatin}\n', 2, /Unicode blocks/],
  ];
  for (const [name, text, line, pattern] of bad) {
    test(`${name} fails the load naming file and line ${line}`, async () => {
      const err = await loadError({ id: ID, files: { 'fast-urlfilter.txt': text } });
      assert.equal(err?.code, 'NUTCH_RULE_FILE_INVALID');
      assert.match(err!.message, new RegExp(`fast-urlfilter\\.txt:${line}: `));
      assert.match(err!.message, pattern);
    });
  }

  test('a missing rule file is NUTCH_CONFIG_FILE_NOT_FOUND', async () => {
    const err = await loadError({ id: ID, config: { 'urlfilter.fast.file': 'missing-fast.txt' } });
    assert.equal(err?.code, 'NUTCH_CONFIG_FILE_NOT_FOUND');
  });
});
