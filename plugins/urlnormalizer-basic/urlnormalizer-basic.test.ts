/** urlnormalizer-basic through the real PluginRepository: Nutch's TestBasicURLNormalizer cases and more. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestContext, runURLNormalizer } from '../../sdk/testing.js';

const pluginDir = dirname(fileURLToPath(import.meta.url));

async function normalizeAll(urls: string[], config: Record<string, unknown> = {}): Promise<(string | null)[]> {
  const dir = mkdtempSync(join(tmpdir(), 'urlnormalizer-basic-'));
  const ctx = createTestContext({ cwd: dir, env: { NUTCH_CONF_DIR: dir }, includeBuiltins: false, pluginFolders: [pluginDir], config: { 'plugin.includes': 'urlnormalizer-basic', ...config } });
  try {
    return await runURLNormalizer(ctx, urls, { extensionId: 'urlnormalizer-basic' });
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function table(name: string, cases: [string, string | null][], config: Record<string, unknown> = {}): void {
  test(name, async () => {
    const got = await normalizeAll(cases.map((c) => c[0]), config);
    cases.forEach(([input, expected], i) => assert.equal(got[i], expected, `normalizing ${JSON.stringify(input)}`));
  });
}

// Nutch TestBasicURLNormalizer.testNormalizer
table('scheme, host, port, path and fragment (Nutch testNormalizer)', [
  [' http://foo.com/ ', 'http://foo.com/'],
  ['HTTP://foo.com/', 'http://foo.com/'],
  ['http://Foo.Com/index.html', 'http://foo.com/index.html'],
  ['http://foo.com:80/index.html', 'http://foo.com/index.html'],
  ['http://foo.com:81/', 'http://foo.com:81/'],
  ['http://example.com:/', 'http://example.com/'],
  ['https://example.com:/foobar.html', 'https://example.com/foobar.html'],
  ['https://example.com:443/foobar.html', 'https://example.com/foobar.html'],
  ['https://example.com:80/foobar.html', 'https://example.com:80/foobar.html'],
  ['ftp://example.com:21/pub/', 'ftp://example.com/pub/'],
  ['http://foo.com:0080/', 'http://foo.com/'],
  ['http://foo.com', 'http://foo.com/'],
  ['http://foo.com/foo.html#ref', 'http://foo.com/foo.html'],
  ['http://foo.com/aa/./foo.html', 'http://foo.com/aa/foo.html'],
  ['http://foo.com/aa/../', 'http://foo.com/'],
  ['http://foo.com/aa/bb/../', 'http://foo.com/aa/'],
  ['http://foo.com/aa/..', 'http://foo.com/'],
  ['http://foo.com/aa/bb/cc/../../foo.html', 'http://foo.com/aa/foo.html'],
  ['http://foo.com/aa/bb/../cc/dd/../ee/foo.html', 'http://foo.com/aa/cc/ee/foo.html'],
  ['http://foo.com/../foo.html', 'http://foo.com/foo.html'],
  ['http://foo.com/../../foo.html', 'http://foo.com/foo.html'],
  ['http://foo.com/../aa/../foo.html', 'http://foo.com/foo.html'],
  ['http://foo.com/aa/../../foo.html', 'http://foo.com/foo.html'],
  ['http://foo.com/aa/../bb/../foo.html/../../', 'http://foo.com/'],
  ['http://foo.com/../aa/foo.html', 'http://foo.com/aa/foo.html'],
  ['http://foo.com/a..a/foo.html', 'http://foo.com/a..a/foo.html'],
  ['http://foo.com/a..a/../foo.html', 'http://foo.com/foo.html'],
  ['http://foo.com/foo.foo/../foo.html', 'http://foo.com/foo.html'],
  ['http://foo.com//aa/bb/foo.html', 'http://foo.com/aa/bb/foo.html'],
  ['http://foo.com/aa//bb/foo.html', 'http://foo.com/aa/bb/foo.html'],
  ['http://foo.com/aa/bb//foo.html', 'http://foo.com/aa/bb/foo.html'],
  ['http://foo.com//aa//bb//foo.html', 'http://foo.com/aa/bb/foo.html'],
  ['http://foo.com////aa////bb////foo.html', 'http://foo.com/aa/bb/foo.html'],
  ['http://foo.com/aa?referer=http://bar.com', 'http://foo.com/aa?referer=http://bar.com'],
  ['http://foo.com/aa/.', 'http://foo.com/aa/'],
  ['http://foo.com/.htaccess', 'http://foo.com/.htaccess'],
  ['http://foo.com/..a/b', 'http://foo.com/..a/b'],
  ['http://foo.com?q=1', 'http://foo.com/?q=1'],
  ['http://foo.com#top', 'http://foo.com/'],
  ['http://foo.com/a?b#c?d', 'http://foo.com/a?b'],
  ['http://foo.com/a?', 'http://foo.com/a?'],
  ['http://user:pw@Foo.com:8080/x', 'http://foo.com:8080/x'],
  ['http://[2001:DB8::1]:80/x', 'http://[2001:db8::1]/x'],
  ['http://127.0.0.1:8080/a/./b', 'http://127.0.0.1:8080/a/b'],
  ['file:///foo/bar.txt', 'file:///foo/bar.txt'],
  ['file:/foo/../bar.txt', 'file:/bar.txt'],
  ['file:relative/path', 'file:/relative/path'],
  ['MAILTO:someone@example.com', 'mailto:someone@example.com'],
]);

// Nutch TestBasicURLNormalizer.testNUTCH1098 and testNUTCH2064
table('percent-encoding (Nutch NUTCH-1098, NUTCH-2064)', [
  ['http://foo.com/%66oo.html', 'http://foo.com/foo.html'],
  ['http://foo.com/%66oo.htm%6c', 'http://foo.com/foo.html'],
  ['http://foo.com/%66oo.ht%6dl', 'http://foo.com/foo.html'],
  ['http://foo.com/%66oo.ht%6d%6c', 'http://foo.com/foo.html'],
  ['http://foo.com/%66oo.htm%C0', 'http://foo.com/foo.htm%C0'],
  ['http://foo.com/%66oo.htm%1A', 'http://foo.com/foo.htm%1A'],
  ['http://foo.com/%66oo.htm%c0', 'http://foo.com/foo.htm%C0'],
  ['http://foo.com/you%20too.html', 'http://foo.com/you%20too.html'],
  ['http://foo.com/you too.html', 'http://foo.com/you%20too.html'],
  ['http://foo.com/file.html%23cz', 'http://foo.com/file.html%23cz'],
  ['http://foo.com/fast/dir%2fcz', 'http://foo.com/fast/dir%2Fcz'],
  ['http://foo.com/\u001a!', 'http://foo.com/%1A!'],
  ['http://foo.com/\u0001!', 'http://foo.com/%01!'],
  ['http://mydomain.com/en Espa\u00F1ol.aspx', 'http://mydomain.com/en%20Espa%C3%B1ol.aspx'],
  ['http://x.com/s?q=a%26b&m=10', 'http://x.com/s?q=a%26b&m=10'],
  ['http://x.com/show?http%3A%2F%2Fx.com%2Fb', 'http://x.com/show?http%3A%2F%2Fx.com%2Fb'],
  ['http://google.com/search?q=c%2B%2B', 'http://google.com/search?q=c%2B%2B'],
  ['http://x.com/s?q=a+b', 'http://x.com/s?q=a+b'],
  ['http://b\u00fccher.de/', 'http://b\u00fccher.de/'],
  ['http://x.com/./a/../%66.html', 'http://x.com/f.html'],
  ['http://x.com/?x[y]=1', 'http://x.com/?x%5By%5D=1'],
  ['http://x.com/foo\u0080', 'http://x.com/foo%C2%80'],
  ['http://x.com/foo%c2%80', 'http://x.com/foo%C2%80'],
  ['http://foo.com/{{stuff}} ', 'http://foo.com/%7B%7Bstuff%7D%7D'],
  ['https://www.example.org/a/../b//./select%2Dlang.php?lang=espa\u00f1ol#anchor', 'https://www.example.org/b/select-lang.php?lang=espa%C3%B1ol'],
  ['http://x.com/%7Euser/%41%5a%30%5F', 'http://x.com/~user/AZ0_'],
  ['http://x.com/a%2E%2E/b', 'http://x.com/a../b'],
  ['http://x.com/a/%2E%2E/b', 'http://x.com/b'],
  ['http://x.com/emoji/\u{1F600}', 'http://x.com/emoji/%F0%9F%98%80'],
  ['http://x.com/a|b^c`d"e<f>g\\h', 'http://x.com/a%7Cb%5Ec%60d%22e%3Cf%3Eg%5Ch'],
  ['http://x.com/tab\there', 'http://x.com/tab%09here'],
  ['http://x.com/del\u007f', 'http://x.com/del%7F'],
  ['http://x.com/?a=%e2%82%ac', 'http://x.com/?a=%E2%82%AC'],
]);

// Nutch TestBasicURLNormalizer.testNormalizer: URLs without a host (authority), as Java's URL reads them
table('degenerate URLs without a host, as Nutch', [
  ['ftp:/', 'ftp:/'],
  ['http:', 'http:/'],
  ['http:////', 'http:/'],
  ['http:///////', 'http:/'],
  ['http://', 'http:/'],
  ['HTTPS:', 'https:/'],
  ['http:/foo.com/', 'http:/foo.com/'],
  ['http:foo', 'http:/foo'],
  ['http:/a/../b#x', 'http:/b'],
  ['http://user@/', 'http:/'],
  ['file:///foo/bar.txt', 'file:///foo/bar.txt'],
]);

// A '%' that does not start an escape is escaped itself (Nutch's escapePath), never a reason to drop the URL
table('a stray % is escaped as %25', [
  ['http://www.example.com/search?q=100%', 'http://www.example.com/search?q=100%25'],
  ['http://foo.com/%zz', 'http://foo.com/%25zz'],
  ['http://foo.com/%4', 'http://foo.com/%254'],
  ['http://foo.com/a%', 'http://foo.com/a%25'],
  ['http://foo.com/%', 'http://foo.com/%25'],
  ['http://foo.com/?q=%G1', 'http://foo.com/?q=%25G1'],
  ['http://foo.com/100%/off%2', 'http://foo.com/100%25/off%252'],
  ['http://foo.com/50%25', 'http://foo.com/50%25'],
  ['http://foo.com/a%%41', 'http://foo.com/a%25A'],
  ['http://foo.com/%e2%82%ac%', 'http://foo.com/%E2%82%AC%25'],
]);

// NUTCH-2824: percent-encoded host names are decoded
table('percent-encoded host names are decoded (NUTCH-2824)', [
  ['http://example%2Ecom/', 'http://example.com/'],
  ['http://example%2ecom/a', 'http://example.com/a'],
  ['http://www.%74%65%73%74.com/', 'http://www.test.com/'],
  ['http://EXAMPLE%2ECOM:80/', 'http://example.com/'],
  ['https://www.%c3%a4gypten.de/', 'https://www.\u00e4gypten.de/'],
  ['https://www.%C3%84GYPTEN.de/', 'https://www.\u00e4gypten.de/'],
  ['http://fo%6F.com/', 'http://foo.com/'],
  ['http://ex%4.com/', null],
  ['http://ex%zz.com/', null],
  ['http://%ff.com/', null],
  ['http://a%2Fb.com/', null],
  ['http://a%20b.com/', null],
  ['http://%2E.com/', null],
]);

table('percent-encoded IDN host names are decoded and converted', [
  ['https://www.%c3%a4gypten.de/', 'https://www.xn--gypten-9ta.de/'],
  ['http://b%C3%BCcher.de/', 'http://xn--bcher-kva.de/'],
  ['http://stra%C3%9Fe.de/', 'http://strasse.de/'],
], { 'urlnormalizer.basic.host.idn': 'toAscii' });

// NUTCH-3087: user info makes duplicates and stores credentials; ftp keeps it, it needs it to log in
table('user info is removed from http and https URLs (NUTCH-3087)', [
  ['http://user@example.com/', 'http://example.com/'],
  ['http://user:password@example.com/', 'http://example.com/'],
  ['https://user:password@Example.com:8443/a', 'https://example.com:8443/a'],
  ['https://user:pw@example.com:443/', 'https://example.com/'],
  ['http://@example.com/', 'http://example.com/'],
  ['http://a@b@example.com/x', 'http://example.com/x'],
  ['ftp://user:password@example.com/pub/', 'ftp://user:password@example.com/pub/'],
  ['ftp://anonymous@Example.com:21/', 'ftp://anonymous@example.com/'],
  ['http://us er@example.com/', null],
]);

table('IDN left as is by default; Punycode checked', [
  ['http://stra\u00dfe.de/', 'http://stra\u00dfe.de/'],
  ['http://B\u00dcCHER.de/', 'http://b\u00fccher.de/'],
  ['http://xn--bcher-kva.de/', 'http://xn--bcher-kva.de/'],
  ['http://www.example.org./', 'http://www.example.org./'],
]);

table('urlnormalizer.basic.host.idn = toAscii', [
  ['http://b\u00fccher.de/', 'http://xn--bcher-kva.de/'],
  ['http://B\u00fcCHER.de/x', 'http://xn--bcher-kva.de/x'],
  ['http://xn--bcher-kva.de/', 'http://xn--bcher-kva.de/'],
  ['http://\u2603.net/', 'http://xn--n3h.net/'],
  ['http://example.com/', 'http://example.com/'],
], { 'urlnormalizer.basic.host.idn': 'toAscii' });

table('toAscii uses IDNA2003 mapping by default, as java.net.IDN in Nutch', [
  ['http://stra\u00dfe.de/', 'http://strasse.de/'],
  ['http://STRA\u00dfE.de/', 'http://strasse.de/'],
  ['http://fa\u00df.de/', 'http://fass.de/'],
  ['http://\u1e9e.de/', 'http://ss.de/'],
  ['http://\u03c2.gr/', 'http://xn--4xa.gr/'],
  ['http://a\u200db.de/', 'http://ab.de/'],
  ['http://b\u00fccher.de/', 'http://xn--bcher-kva.de/'],
  ['https://www.\u00e4gypten.de/', 'https://www.xn--gypten-9ta.de/'],
], { 'urlnormalizer.basic.host.idn': 'toAscii' });

table('urlnormalizer.basic.host.idna2008 = true: IDNA2008 (UTS #46 non-transitional)', [
  ['http://stra\u00dfe.de/', 'http://xn--strae-oqa.de/'],
  ['http://fa\u00df.de/', 'http://xn--fa-hia.de/'],
  ['http://\u03c2.gr/', 'http://xn--3xa.gr/'],
  ['http://b\u00fccher.de/', 'http://xn--bcher-kva.de/'],
  ['http://a\u200db.de/', null],
], { 'urlnormalizer.basic.host.idn': 'toAscii', 'urlnormalizer.basic.host.idna2008': true });

table('toUnicode under IDNA2003 keeps a label IDNA2003 would have written otherwise', [
  ['http://xn--strae-oqa.de/', 'http://xn--strae-oqa.de/'],
  ['http://xn--bcher-kva.de/', 'http://b\u00fccher.de/'],
  ['http://www.xn--strae-oqa.xn--bcher-kva.de/', 'http://www.xn--strae-oqa.b\u00fccher.de/'],
], { 'urlnormalizer.basic.host.idn': 'toUnicode' });

table('toUnicode under IDNA2008 decodes every label', [
  ['http://xn--strae-oqa.de/', 'http://stra\u00dfe.de/'],
  ['http://xn--bcher-kva.de/', 'http://b\u00fccher.de/'],
], { 'urlnormalizer.basic.host.idn': 'toUnicode', 'urlnormalizer.basic.host.idna2008': true });

table('IDN conversion and trailing-dot removal together', [
  ['http://B\u00fccher.de./', 'http://xn--bcher-kva.de/'],
  ['http://example.org.:80/', 'http://example.org/'],
], { 'urlnormalizer.basic.host.idn': 'toAscii', 'urlnormalizer.basic.host.trim-trailing-dot': true });

table('urlnormalizer.basic.host.idn = toUnicode', [
  ['http://xn--bcher-kva.de/', 'http://b\u00fccher.de/'],
  ['http://XN--BCHER-KVA.de/', 'http://b\u00fccher.de/'],
  ['http://b\u00fccher.de/', 'http://b\u00fccher.de/'],
  ['http://xn--caf-dma.com/menu', 'http://caf\u00e9.com/menu'],
], { 'urlnormalizer.basic.host.idn': 'toUnicode' });

table('urlnormalizer.basic.host.trim-trailing-dot', [
  ['https://www.example.org./', 'https://www.example.org/'],
  ['https://www.example.org.:443/a', 'https://www.example.org/a'],
  ['https://www.example.org/', 'https://www.example.org/'],
], { 'urlnormalizer.basic.host.trim-trailing-dot': true });

table('malformed input is dropped (null), never thrown', [
  ['', null],
  ['   ', null],
  ['foo.com/index.html', null],
  ['//foo.com/', null],
  ['1http://foo.com/', null],
  ['ht tp://foo.com/', null],
  ['http://foo bar.com/', null],
  ['http://foo.com\u0000/', null],
  ['http://a..b/', null],
  ['http://.foo.com/', null],
  ['http://foo..com./', null],
  ['http://foo.com:port/', null],
  ['http://foo.com:65536/', null],
  ['http://foo.com:-1/', null],
  ['http://[::1/', null],
  ['http://[::g]/', null],
  ['http://xn--zz.com/', null],
  ['http://xn--a.com/', null],
  ['http://:8080/', null],
  ['http://foo.com/\ud800', null],
  ['http://' + 'a'.repeat(64) + '.com/', null],
  ['http://foo.com/' + 'a'.repeat(100 * 1024), null],
  ['mailto:a b@example.com', null],
]);

test('a long URL under the limit is handled linearly', async () => {
  const url = 'http://foo.com/' + 'a/'.repeat(1500) + '..';
  const [out] = await normalizeAll([url]);
  assert.equal(out, 'http://foo.com/' + 'a/'.repeat(1499));
});

test('normalizing is idempotent on every normalised case', async () => {
  const inputs = ['HTTP://Foo.Com:80/a/../b//./c%2d?x[1]=%e2%82%ac#f', 'http://x.com/%7E/ä?ö', 'https://b\u00fccher.de/./', 'http://u:p@x.com/100%/a%zz?q=5%', 'http:', 'http:////a//', 'http://ex%61mple%2Ecom/'];
  const once = await normalizeAll(inputs);
  const twice = await normalizeAll(once as string[]);
  assert.deepEqual(twice, once);
});

test('an invalid urlnormalizer.basic.host.idn value is a configuration error naming the property', async () => {
  await assert.rejects(normalizeAll(['http://x.com/'], { 'urlnormalizer.basic.host.idn': 'punycode' }), (err: { code?: string; message: string }) => {
    assert.equal(err.code, 'NUTCH_CONFIG_INVALID_VALUE');
    assert.match(err.message, /urlnormalizer\.basic\.host\.idn/);
    return true;
  });
});
