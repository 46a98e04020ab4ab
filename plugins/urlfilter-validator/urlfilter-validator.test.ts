import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MALFORMED, filterHarness, type FilterHarness } from '../../tests/helpers/filter-test-harness.js';

const ID = 'urlfilter-validator';

describe('urlfilter-validator (Nutch UrlValidator rules, urlfilter.tld.length 8)', () => {
  let h: FilterHarness;
  before(async () => { h = await filterHarness({ id: ID }); });
  after(() => h.close());
  // Nutch's TestUrlValidator cases first, then the rules they imply.
  const cases: Array<[string, boolean]> = [
    ['example.com/file[/].html', false],
    ['http://www.example.com/space here.html', false],
    ['/main.html', false],
    ['www.example.com/main.html', false],
    ['ftp:www.example.com/main.html', false],
    ['http://999.000.456.32/nutch/trunk/README.txt', false],
    [' http://www.example.com/ma|in\\toc.html', false],
    ['http://example.abcdefghi', false],
    ['https://issues.apache.org/jira/NUTCH-1127', true],
    ['http://domain.tld/function.cgi?url=http://fonzi.com/&amp;name=Fonzi&amp;mood=happy&amp;coat=leather', true],
    ['http://validator.w3.org/feed/check.cgi?url=http%3A%2F%2Ffeeds.feedburner.com%2Fperishablepress', true],
    ['ftp://alfa.bravo.pi/mike/check/plan.pdf', true],
    ['http://example.abcdefgh', true],
    ['http://www.apache.org', true],
    ['http://www.apache.org/', true],
    ['http://www.apache.org:8080/', true],
    ['http://www.apache.org:/', false],
    ['http://www.apache.org:123456/', false],
    ['http://www.apache.org:80a/', false],
    ['http://127.0.0.1/', true],
    ['http://255.255.255.255/', true],
    ['http://256.1.1.1/', false],
    ['http://1.2.3/', false],
    ['http://localhost/', false],
    ['http://a.b/', false],
    ['http://a.b2/', true],
    ['http://a.2b/', false],
    ['http://www.apache.org./', false],
    ['http://www..apache.org/', false],
    ['http://-a.com/', true],
    ['http://user@www.apache.org/', false],
    ['http://[::1]/', false],
    ['http://www.apache.org/a/../b', true],
    ['http://www.apache.org/../b', false],
    ['http://www.apache.org/../../../b', false],
    ['http://www.apache.org/a/../../b', true], // Nutch's slash/dot count, kept as is,
    ['http://www.apache.org/a//../b', true],
    ['http://www.apache.org/~user/', true],
    ['http://www.apache.org/a_b-c.d!e*f\'g(h)i;j$k,l', true],
    ['http://www.apache.org/a"b', false],
    ['http://www.apache.org/a<b>', false],
    ['http://www.apache.org/a{b}', false],
    ['http://www.apache.org/a^b', false],
    ['http://www.apache.org/%41%42', true],
    ['http://www.apache.org/%4', false],
    ['http://www.apache.org/%zz', false],
    ['http://www.apache.org/?q=%', false],
    ['http://www.apache.org/?q=a|b', true],
    ['http://www.apache.org/#frag', true],
    ['http://www.apache.org/caf\u00e9', false],
    ['svn+ssh://svn.apache.org/repo', false],
    ['mailto:someone@apache.org', false],
    ['file:///etc/hosts', false],
    ['HTTPS://WWW.APACHE.ORG/', true],
  ];
  for (const [url, ok] of cases) test(`${ok ? 'accepts' : 'rejects'} ${JSON.stringify(url)}`, () => assert.equal(h.filter(url), ok ? url : null));
  for (const [name, url] of MALFORMED) test(`rejects malformed input: ${name}`, () => assert.equal(h.filter(url), null));
});

describe('urlfilter-validator configuration', () => {
  test('urlfilter.tld.length bounds the top-level label', async () => {
    const h = await filterHarness({ id: ID, config: { 'urlfilter.tld.length': 3 } });
    try {
      assert.equal(h.filter('http://example.com/'), 'http://example.com/');
      assert.equal(h.filter('http://example.info/'), null);
    } finally {
      await h.close();
    }
  });
  test('is active by default (plugin.includes names urlfilter-(regex|validator))', async () => {
    const h = await filterHarness({ id: ID, config: { 'plugin.includes': 'urlfilter-(regex|validator)' } });
    try {
      assert.equal(h.filter('http://localhost/'), null);
    } finally {
      await h.close();
    }
  });
});
