import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MALFORMED, filterHarness, loadError, type FilterHarness } from '../../tests/helpers/filter-test-harness.js';

const ID = 'urlfilter-prefix';

describe('urlfilter-prefix with the shipped prefix-urlfilter.txt', () => {
  let h: FilterHarness;
  before(async () => { h = await filterHarness({ id: ID }); });
  after(() => h.close());
  const cases: Array<[string, boolean]> = [
    ['http://example.com/', true],
    ['https://example.com/', true],
    ['ftp://ftp.example.com/pub/', true],
    ['file:///etc/hosts', true],
    ['mailto:a@example.com', false],
    ['javascript:alert(1)', false],
    ['HTTP://EXAMPLE.COM/', false], // prefixes are case-sensitive, as Nutch's trie
    ['gopher://example.com/', false],
    ['news:comp.lang.java', false],
    ['data:text/plain,hi', false],
  ];
  for (const [url, ok] of cases) test(`${ok ? 'accepts' : 'rejects'} ${url}`, () => assert.equal(h.filter(url), ok ? url : null));
  for (const [name, url] of MALFORMED) test(`rejects malformed input: ${name}`, () => assert.equal(h.filter(url), null));
});

describe('urlfilter-prefix rules', () => {
  const RULES = [
    '# comment',
    ' http://indented-is-a-comment.com/',
    '',
    'http://www.apache.org/',
    'http://nutch.apache.org/docs/',
    'https://example.com',
    'https://example.com/a/b/c/',
  ].join('\n');
  let h: FilterHarness;
  before(async () => { h = await filterHarness({ id: ID, files: { 'prefix-urlfilter.txt': RULES } }); });
  after(() => h.close());
  const cases: Array<[string, boolean]> = [
    ['http://www.apache.org/', true],
    ['http://www.apache.org/foo/bar.html', true],
    ['http://www.apache.org', false],
    ['http://apache.org/', false],
    ['http://nutch.apache.org/docs/index.html', true],
    ['http://nutch.apache.org/download/', false],
    ['https://example.com', true],
    ['https://example.com.evil.org/', true], // a prefix is only a prefix, as in Nutch
    ['https://example.com/a/b/c/d', true],
    ['http://example.com/', false],
    ['http://indented-is-a-comment.com/', false],
    ['http://www.apache.org.', false],
  ];
  for (const [url, ok] of cases) test(`${ok ? 'accepts' : 'rejects'} ${url}`, () => assert.equal(h.filter(url), ok ? url : null));

  test('urlfilter.prefix.rules takes precedence over the file', async () => {
    const g = await filterHarness({ id: ID, files: { 'prefix-urlfilter.txt': 'http://a/\n' }, config: { 'urlfilter.prefix.rules': 'https://b/' } });
    try {
      assert.equal(g.filter('http://a/x'), null);
      assert.equal(g.filter('https://b/x'), 'https://b/x');
    } finally {
      await g.close();
    }
  });

  test('an empty prefix file rejects everything and warns', async () => {
    const g = await filterHarness({ id: ID, files: { 'prefix-urlfilter.txt': '# nothing\n' } });
    try {
      assert.equal(g.filter('http://a.com/'), null);
      assert.ok(g.warnings().some((w) => /every URL will be rejected/.test(w)));
    } finally {
      await g.close();
    }
  });

  test('a missing rule file is NUTCH_CONFIG_FILE_NOT_FOUND', async () => {
    const err = await loadError({ id: ID, config: { 'urlfilter.prefix.file': 'missing-prefixes.txt' } });
    assert.equal(err?.code, 'NUTCH_CONFIG_FILE_NOT_FOUND');
    assert.match(err!.message, /missing-prefixes\.txt.*urlfilter\.prefix\.file/);
  });
});
