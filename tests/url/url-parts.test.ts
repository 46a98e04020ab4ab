import { test } from 'node:test';
import assert from 'node:assert/strict';
import { domainOf, hostOf, hostParts, publicSuffixOf } from '../../core/url/url-parts.js';
import { chooseRepr } from '../../core/url/choose-repr.js';

test('hostOf: the WHATWG host, lower-cased; the fast path agrees with WHATWG URL', () => {
  const cases: Array<[string, string | null]> = [
    ['http://WWW.Example.COM/a', 'www.example.com'],
    ['https://a.b.example.co.uk:8443/x?y#z', 'a.b.example.co.uk'],
    ['http://127.0.0.1:8080/page', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://user:pw@Host.example/', 'host.example'],
    ['http://b\u00fccher.de/', 'xn--bcher-kva.de'],
    ['http://%41.example/', 'a.example'],
    ['http://[::1]:80/', '[::1]'],
    ['http://a.example:99999/', null],
    ['http://a.example./', 'a.example.'],
    ['HTTP://A.EXAMPLE\\path', 'a.example'],
    ['file:///etc/passwd', null],
    ['not a url', null],
  ];
  for (const [url, host] of cases) {
    assert.equal(hostOf(url), host, url);
    if (host !== null) assert.equal(hostOf(url), new URL(url).hostname.toLowerCase(), `${url} as WHATWG`);
  }
});

test('one domain rule: ICANN suffixes, the default rule for unlisted labels, IPs and single labels are their own', () => {
  const cases: Array<[string, string, string | null]> = [
    ['lucene.apache.org', 'apache.org', 'org'],
    ['a.b.example.co.uk', 'example.co.uk', 'co.uk'],
    ['WWW.APACHE.ORG.', 'apache.org', 'org'],
    ['foo.github.io', 'github.io', 'io'], // private suffixes are not domain suffixes (as Nutch's domain-suffixes.xml)
    ['foo.blogspot.com', 'blogspot.com', 'com'],
    ['www.a.example', 'a.example', null],
    ['127.0.0.1', '127.0.0.1', null],
    ['::1', '::1', null],
    ['localhost', 'localhost', null],
    ['co.uk', 'co.uk', 'co.uk'],
    ['', '', null],
  ];
  for (const [host, domain, suffix] of cases) {
    assert.equal(domainOf(host), domain, host);
    assert.equal(publicSuffixOf(host), suffix, host);
    assert.deepEqual(hostParts(host), { host: host.toLowerCase().replace(/\.$/, ''), domain, suffix }, host);
  }
});

test('chooseRepr: Nutch URLUtil.chooseRepr, case by case', () => {
  const cases: Array<[string, string, string, boolean, string]> = [
    ['another domain: the target, temporary or permanent', 'http://a.com/', 'http://b.com/', true, 'http://b.com/'],
    ['another domain, permanent', 'http://a.com/', 'http://b.com/x', false, 'http://b.com/x'],
    ['permanent from a root: the source', 'http://a.com/', 'http://a.com/xyz/index.html', false, 'http://a.com/'],
    ['permanent from a root to a query: the source', 'http://a.com', 'http://a.com/?y=1', false, 'http://a.com'],
    ['permanent from a deeper page: the target', 'http://a.com/xyz/index.html', 'http://a.com/', false, 'http://a.com/'],
    ['permanent, neither root: the target', 'http://a.com/xyz/index.html', 'http://a.com/abc/page.html', false, 'http://a.com/abc/page.html'],
    ['temporary, root source: the source', 'http://a.com/', 'http://a.com/xyz/index.html', true, 'http://a.com/'],
    ['temporary, root target: the target', 'http://a.com/xyz/index.html', 'http://a.com/', true, 'http://a.com/'],
    ['temporary, same host: fewer path segments', 'http://a.com/xyz/index.html', 'http://a.com/index.html', true, 'http://a.com/index.html'],
    ['temporary, same host: fewer segments even when longer', 'http://a.com/a/b/c', 'http://a.com/a-much-longer-name.html', true, 'http://a.com/a-much-longer-name.html'],
    ['temporary, same host, same depth: the shorter path', 'http://a.com/abc/long-page.html', 'http://a.com/abc/p.html', true, 'http://a.com/abc/p.html'],
    ['temporary, same depth and length: the source', 'http://a.com/abc/1.html', 'http://a.com/abc/2.html', true, 'http://a.com/abc/1.html'],
    ['temporary, a query counts in the path', 'http://a.com/p?session=1234', 'http://a.com/p', true, 'http://a.com/p'],
    ['temporary, both roots: fewer host labels', 'http://www.news.a.com/', 'http://www.a.com/', true, 'http://www.a.com/'],
    ['temporary, both roots, more labels: the source', 'http://www.a.com/', 'http://www.news.a.com/', true, 'http://www.a.com/'],
    ['temporary, two hosts, neither root: fewer host labels', 'http://www.a.com/x/y', 'http://a.com/x/y/z', true, 'http://a.com/x/y/z'],
    ['unparsable source: the target', 'not a url', 'http://a.com/', true, 'http://a.com/'],
  ];
  for (const [name, src, dst, temp, expected] of cases) assert.equal(chooseRepr(src, dst, temp), expected, name);
});
