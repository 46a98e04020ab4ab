import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MALFORMED, filterHarness, loadError, type FilterHarness } from '../../tests/helpers/filter-test-harness.js';

const ID = 'urlfilter-domaindenylist';

// As Nutch's TestDomainDenylistURLFilter: suffix, domains and hosts denied.
const RULES = ['# denied', 'net', 'apache.org', 'www.example.com', 'co.uk', '127.0.0.1', 'LOCALHOST'].join('\n');

describe('urlfilter-domaindenylist', () => {
  let h: FilterHarness;
  before(async () => { h = await filterHarness({ id: ID, files: { 'domaindenylist-urlfilter.txt': RULES } }); });
  after(() => h.close());
  const cases: Array<[string, boolean]> = [
    ['http://lucene.apache.org', false],
    ['http://hadoop.apache.org', false],
    ['http://www.apache.org', false],
    ['http://apache.org/x', false],
    ['http://www.google.com', true],
    ['http://mail.yahoo.com', true],
    ['http://www.foobar.net', false],
    ['http://www.foobas.net', false],
    ['http://www.example.com', false],
    ['http://example.com', true],
    ['http://shop.example.com', true],
    ['http://www.bbc.co.uk/', false],
    ['http://www.example.org/', true],
    ['http://apache.org.example.com/', true],
    ['http://notapache.org/', true],
    ['http://127.0.0.1:8080/', false],
    ['http://127.0.0.2/', true],
    ['http://localhost/', false],
    ['http://LocalHost:80/x', false],
    ['https://www.wikipedia.org/wiki/Main_Page', true],
    ['http://www.apache.org./', false],
    ['mailto:someone@example.com', false],
  ];
  for (const [url, ok] of cases) test(`${ok ? 'accepts' : 'rejects'} ${url}`, () => assert.equal(h.filter(url), ok ? url : null));
  for (const [name, url] of MALFORMED) test(`rejects malformed input: ${name}`, () => assert.equal(h.filter(url), null));
});

describe('urlfilter-domaindenylist configuration', () => {
  test('the shipped domaindenylist-urlfilter.txt is empty: every URL with a host passes', async () => {
    const h = await filterHarness({ id: ID });
    try {
      assert.equal(h.filter('http://www.apache.org/'), 'http://www.apache.org/');
    } finally {
      await h.close();
    }
  });

  test('urlfilter.domaindenylist.rules takes precedence over the file', async () => {
    const h = await filterHarness({ id: ID, files: { 'domaindenylist-urlfilter.txt': 'org\n' }, config: { 'urlfilter.domaindenylist.rules': 'de' } });
    try {
      assert.equal(h.filter('http://a.de/'), null);
      assert.equal(h.filter('http://a.org/'), 'http://a.org/');
    } finally {
      await h.close();
    }
  });

  test('a missing rule file is NUTCH_CONFIG_FILE_NOT_FOUND', async () => {
    const err = await loadError({ id: ID, config: { 'urlfilter.domaindenylist.file': 'missing-denylist.txt' } });
    assert.equal(err?.code, 'NUTCH_CONFIG_FILE_NOT_FOUND');
  });
});
