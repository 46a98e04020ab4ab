import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MALFORMED, filterHarness, loadError, type FilterHarness } from '../../tests/helpers/filter-test-harness.js';

const ID = 'urlfilter-domain';

// As Nutch's TestDomainURLFilter: a suffix, domains and hosts in one file.
const RULES = ['# sample', 'net', 'apache.org', 'www.example.com', 'co.uk', 'Mixed.Case.ORG', 'intranet', '192.168.1.10', '', ' spaced.io '].join('\n');

describe('urlfilter-domain', () => {
  let h: FilterHarness;
  before(async () => { h = await filterHarness({ id: ID, files: { 'domain-urlfilter.txt': RULES } }); });
  after(() => h.close());
  const cases: Array<[string, boolean]> = [
    ['http://lucene.apache.org', true],
    ['http://hadoop.apache.org', true],
    ['http://www.apache.org', true],
    ['http://apache.org/', true],
    ['http://APACHE.ORG/', true],
    ['https://deep.sub.apache.org:8443/x?y=1', true],
    ['http://www.google.com', false],
    ['http://mail.yahoo.com', false],
    ['http://www.foobar.net', true],
    ['http://www.foobas.net', true],
    ['http://sub.example.net/', true],
    ['http://www.example.com', true],
    ['http://example.com', false],
    ['http://shop.example.com', false],
    ['http://www.bbc.co.uk/', true],
    ['http://bbc.co.uk/', true],
    ['http://www.example.org/', false],
    ['http://apache.org.evil.com/', false],
    ['http://evilapache.org/', false],
    ['http://mixed.case.org/', true],
    ['http://intranet/', true],
    ['http://intranet:8080/wiki', true],
    ['http://192.168.1.10/admin', true],
    ['http://192.168.1.11/admin', false],
    ['http://www.spaced.io/', true],
    ['http://www.apache.org./', true],
    ['http://user:pw@www.apache.org/', true],
    ['mailto:someone@apache.org', false],
    ['file:///etc/hosts', false],
    ['http://[::1]/', false],
  ];
  for (const [url, ok] of cases) test(`${ok ? 'accepts' : 'rejects'} ${url}`, () => assert.equal(h.filter(url), ok ? url : null));
  for (const [name, url] of MALFORMED) test(`rejects malformed input: ${name}`, () => assert.equal(h.filter(url), null));
});

describe('urlfilter-domain configuration', () => {
  test('the shipped domain-urlfilter.txt is empty: every URL is rejected, with a warning', async () => {
    const h = await filterHarness({ id: ID });
    try {
      assert.equal(h.filter('http://www.apache.org/'), null);
      assert.ok(h.warnings().some((w) => /every URL will be rejected/.test(w)));
    } finally {
      await h.close();
    }
  });

  test('urlfilter.domain.rules takes precedence over the file', async () => {
    const h = await filterHarness({ id: ID, files: { 'domain-urlfilter.txt': 'org\n' }, config: { 'urlfilter.domain.rules': 'de\n' } });
    try {
      assert.equal(h.filter('http://a.de/'), 'http://a.de/');
      assert.equal(h.filter('http://a.org/'), null);
    } finally {
      await h.close();
    }
  });

  test('a missing rule file is NUTCH_CONFIG_FILE_NOT_FOUND', async () => {
    const err = await loadError({ id: ID, config: { 'urlfilter.domain.file': 'missing-domains.txt' } });
    assert.equal(err?.code, 'NUTCH_CONFIG_FILE_NOT_FOUND');
    assert.match(err!.message, /urlfilter\.domain\.file/);
  });
});
