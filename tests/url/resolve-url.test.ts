/** resolveURL (Nutch's URLUtil.resolveURL): RFC 3986 §5.4 reference resolution examples, and what it leaves alone. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveURL } from '../../sdk/plugin.js';

function table(name: string, base: string, cases: [string, string | null][]): void {
  test(name, () => {
    for (const [target, expected] of cases) assert.equal(resolveURL(target, base), expected, `${JSON.stringify(target)} against ${base}`);
  });
}

table('RFC 3986 5.4.1 normal examples', 'http://a/b/c/d;p?q', [
  ['g:h', 'g:h'],
  ['g', 'http://a/b/c/g'],
  ['./g', 'http://a/b/c/g'],
  ['g/', 'http://a/b/c/g/'],
  ['/g', 'http://a/g'],
  ['//g', 'http://g'],
  ['?y', 'http://a/b/c/d;p?y'],
  ['g?y', 'http://a/b/c/g?y'],
  ['#s', 'http://a/b/c/d;p?q#s'],
  ['g#s', 'http://a/b/c/g#s'],
  ['g?y#s', 'http://a/b/c/g?y#s'],
  [';x', 'http://a/b/c/;x'],
  ['g;x', 'http://a/b/c/g;x'],
  ['g;x?y#s', 'http://a/b/c/g;x?y#s'],
  ['', 'http://a/b/c/d;p?q'],
  ['.', 'http://a/b/c/'],
  ['./', 'http://a/b/c/'],
  ['..', 'http://a/b/'],
  ['../', 'http://a/b/'],
  ['../g', 'http://a/b/g'],
  ['../..', 'http://a/'],
  ['../../', 'http://a/'],
  ['../../g', 'http://a/g'],
]);

table('RFC 3986 5.4.2 abnormal examples', 'http://a/b/c/d;p?q', [
  ['../../../g', 'http://a/g'],
  ['../../../../g', 'http://a/g'],
  ['/./g', 'http://a/g'],
  ['/../g', 'http://a/g'],
  ['g.', 'http://a/b/c/g.'],
  ['.g', 'http://a/b/c/.g'],
  ['g..', 'http://a/b/c/g..'],
  ['..g', 'http://a/b/c/..g'],
  ['./../g', 'http://a/b/g'],
  ['./g/.', 'http://a/b/c/g/'],
  ['g/./h', 'http://a/b/c/g/h'],
  ['g/../h', 'http://a/b/c/h'],
  ['g;x=1/./y', 'http://a/b/c/g;x=1/y'],
  ['g;x=1/../y', 'http://a/b/c/y'],
  ['g?y/./x', 'http://a/b/c/g?y/./x'],
  ['g?y/../x', 'http://a/b/c/g?y/../x'],
  ['g#s/./x', 'http://a/b/c/g#s/./x'],
  ['g#s/../x', 'http://a/b/c/g#s/../x'],
  ['http:g', 'http://a/b/c/g'], // same scheme, no authority: relative, as Java's URL and browsers
]);

table('a base whose last segment is only ;params (Nutch TestDOMContentUtils)', 'http://www.nutch.org/;something', [
  ['g', 'http://www.nutch.org/g'],
  ['g?y#s', 'http://www.nutch.org/g?y#s'],
  ['?y=1', 'http://www.nutch.org/;something?y=1'],
  ['?y=1#s', 'http://www.nutch.org/;something?y=1#s'],
  ['?y=1;somethingelse', 'http://www.nutch.org/;something?y=1;somethingelse'],
]);

table('absolute targets are kept as written; the URL normalizers clean them later', 'http://www.example.org/dir/page.html', [
  ['http://www.nutch.org', 'http://www.nutch.org'],
  ['HTTP://Example.COM/a b?x=%zz#f', 'HTTP://Example.COM/a b?x=%zz#f'],
  ['https://b\u00fccher.de/\u00e4', 'https://b\u00fccher.de/\u00e4'],
  ['http://host:80/./a/../b', 'http://host:80/./a/../b'],
  ['ftp://x.org/f', 'ftp://x.org/f'],
  ['mailto:someone@example.org', 'mailto:someone@example.org'],
  ['javascript:void(0)', 'javascript:void(0)'],
]);

table('whitespace: trimmed at the ends, tabs and line breaks inside removed (as browsers)', 'http://www.example.org/dir/', [
  ['  page.html \n', 'http://www.example.org/dir/page.html'],
  ['long/\n   path.html', 'http://www.example.org/dir/long/   path.html'],
  ['a\tb\r\nc', 'http://www.example.org/dir/abc'],
  ['\u0000x', 'http://www.example.org/dir/x'],
  ['a b', 'http://www.example.org/dir/a b'], // kept: urlnormalizer-basic escapes it
]);

table('a base without a path or with an empty authority', 'http://www.example.org', [
  ['g', 'http://www.example.org/g'],
  ['?q', 'http://www.example.org?q'],
  ['#f', 'http://www.example.org#f'],
  ['', 'http://www.example.org'],
]);

table('file: bases', 'file:///home/u/docs/index.html', [
  ['../img/a.png', 'file:///home/u/img/a.png'],
  ['/etc/hosts', 'file:///etc/hosts'],
]);

test('an opaque or relative base resolves only absolute targets', () => {
  assert.equal(resolveURL('g', 'mailto:a@b.c'), null);
  assert.equal(resolveURL('g', 'not a url'), null);
  assert.equal(resolveURL('g', ''), null);
  assert.equal(resolveURL('http://x.org/', 'mailto:a@b.c'), 'http://x.org/');
  assert.equal(resolveURL('mailto:z@b.c', 'mailto:a@b.c'), 'mailto:z@b.c');
});
