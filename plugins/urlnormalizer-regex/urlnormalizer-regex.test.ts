/**
 * urlnormalizer-regex through the real PluginRepository: Nutch's sample rule files and their .test
 * expectations, the shipped conf/regex-normalize.xml, scopes, the JSON form, Java regex translation
 * and load errors with file and line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestContext, runURLNormalizer } from '../../sdk/testing.js';

const pluginDir = dirname(fileURLToPath(import.meta.url));

interface Setup {
  files?: Record<string, string>;
  config?: Record<string, unknown>;
  scope?: string;
}

async function normalizeAll(urls: string[], setup: Setup = {}): Promise<(string | null)[]> {
  const dir = mkdtempSync(join(tmpdir(), 'urlnormalizer-regex-'));
  for (const [name, text] of Object.entries(setup.files ?? {})) writeFileSync(join(dir, name), text);
  const ctx = createTestContext({
    cwd: dir, env: { NUTCH_CONF_DIR: dir }, includeBuiltins: false, pluginFolders: [pluginDir, join(pluginDir, '..', 'lib-regex-filter')],
    config: { 'plugin.includes': 'urlnormalizer-regex', ...setup.config },
  });
  try {
    return await runURLNormalizer(ctx, urls, { extensionId: 'urlnormalizer-regex', scope: setup.scope ?? 'default' });
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function table(name: string, cases: [string, string][], setup: Setup = {}): void {
  test(name, async () => {
    const got = await normalizeAll(cases.map((c) => c[0]), setup);
    cases.forEach(([input, expected], i) => assert.equal(got[i], expected, `normalizing ${input}`));
  });
}

function xml(rules: [string, string][]): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<?xml version="1.0"?>\n<regex-normalize>\n${rules.map(([p, s]) => `<regex>\n  <pattern>${esc(p)}</pattern>\n  <substitution>${esc(s)}</substitution>\n</regex>`).join('\n')}\n</regex-normalize>\n`;
}

// Nutch's src/plugin/urlnormalizer-regex/sample/regex-normalize-default.xml (default-page rule enabled).
const NUTCH_SAMPLE_DEFAULT = xml([
  ['(?i)(;?\\b_?(l|j|bv_)?(sid|phpsessid|sessionid)=.*?)(\\?|&|#|$)', '$4'],
  ['/((?i)index|default)\\.((?i)js[pf]{1}?[afx]?|cgi|cfm|asp[x]?|[psx]?htm[l]?|php[3456]?)(\\?|&|#|$)', '/$3'],
  ['#.*?(\\?|&|$)', '$1'],
  ['\\?&', '\\?'],
  ['&{2,}', '&'],
  ['[\\?&\\.]$', ''],
  ['^file://+', 'file:/'],
  ['(?<!:)/{2,}', '/'],
]);

// Nutch's sample/regex-normalize-default.test
table('Nutch sample regex-normalize-default.test', [
  ['http://foo.com/foo.php?PHPSESSID=cdc993a493e899bed04f4d0c8a462a03', 'http://foo.com/foo.php'],
  ['http://foo.com/foo.php?f=2&PHPSESSID=cdc993a493e899bed04f4d0c8a462a03', 'http://foo.com/foo.php?f=2'],
  ['http://foo.com/foo.php?f=2&PHPSESSID=cdc993a493e899bed04f4d0c8a462a03&q=3', 'http://foo.com/foo.php?f=2&q=3'],
  ['http://foo.com/foo.php?PHPSESSID=cdc993a493e899bed04f4d0c8a462a03&f=2', 'http://foo.com/foo.php?f=2'],
  ['http://www.foo.com/foo.php?Bv_SessionID=fassassddsajkl', 'http://www.foo.com/foo.php'],
  ['http://www.foo.com/foo.php?Bv_SessionID=fassassddsajkl&x=y', 'http://www.foo.com/foo.php?x=y'],
  ['http://www.foo.com/foo.html;jsessionid=1E6FEC0D14D044541DD84D2D013D29ED', 'http://www.foo.com/foo.html'],
  ['http://www.foo.com/foo.html?param=1&another=2;jsessionid=1E6FEC0D14D044541DD84D2D013D29ED', 'http://www.foo.com/foo.html?param=1&another=2'],
  ['http://www.foo.com/foo.html;jsessionid=1E6FEC0D14D044541DD84D2D013D29ED?param=1&another=2', 'http://www.foo.com/foo.html?param=1&another=2'],
  ['http://www.foo.com/foo.php?&x=1&sid=xyz&something=1', 'http://www.foo.com/foo.php?x=1&something=1'],
  ['http://www.foo.com/foo.html?_sessionID=824A6C0A13a7e11205wxN28F44E3', 'http://www.foo.com/foo.html'],
  ['http://www.foo.com/foo.php?_sessionid=qmyrcedt&outputformat=html&path=/3_images/foo', 'http://www.foo.com/foo.php?outputformat=html&path=/3_images/foo'],
  ['http://www.foo.com/foo.php?_pid=2&_spid=0&lang=en&_sessionid=e36902d5bb2d0d922fc24b43', 'http://www.foo.com/foo.php?_pid=2&_spid=0&lang=en'],
  ['http://www.foo.com/foo.php?app=content&content=overview&lang=en&_sid=587fba8f825b05844526519fdb7d75c8&b=35&m=47', 'http://www.foo.com/foo.php?app=content&content=overview&lang=en&b=35&m=47'],
  ['http://www.foo.com/fa/newsdetail.aspx?NewsID=1567539', 'http://www.foo.com/fa/newsdetail.aspx?NewsID=1567539'],
  ['http://www.foo.com/home.cfm?language=en&country=uk&addressid=250646&pagingpos=0', 'http://www.foo.com/home.cfm?language=en&country=uk&addressid=250646&pagingpos=0'],
  ['http://www.foo.com/home/index.html', 'http://www.foo.com/home/'],
  ['http://www.foo.com/index.html', 'http://www.foo.com/'],
  ['http://www.foo.com/index.htm', 'http://www.foo.com/'],
  ['http://www.foo.com/index.asp', 'http://www.foo.com/'],
  ['http://www.foo.com/index.aspx', 'http://www.foo.com/'],
  ['http://www.foo.com/index.php', 'http://www.foo.com/'],
  ['http://www.foo.com/index.php3', 'http://www.foo.com/'],
  ['http://www.foo.com/default.html', 'http://www.foo.com/'],
  ['http://www.foo.com/default.htm', 'http://www.foo.com/'],
  ['http://www.foo.com/default.asp', 'http://www.foo.com/'],
  ['http://www.foo.com/default.aspx', 'http://www.foo.com/'],
  ['http://www.foo.com/default.php', 'http://www.foo.com/'],
  ['http://www.foo.com/default.php3', 'http://www.foo.com/'],
  ['http://www.foo.com/something.php3', 'http://www.foo.com/something.php3'],
  ['http://www.foo.com/something.html', 'http://www.foo.com/something.html'],
  ['http://www.foo.com/something.asp', 'http://www.foo.com/something.asp'],
  ['http://www.foo.com/index.phtml', 'http://www.foo.com/'],
  ['http://www.foo.com/index.cfm', 'http://www.foo.com/'],
  ['http://www.foo.com/index.cgi', 'http://www.foo.com/'],
  ['http://www.foo.com/index.HTML', 'http://www.foo.com/'],
  ['http://www.foo.com/index.Htm', 'http://www.foo.com/'],
  ['http://www.foo.com/index.ASP', 'http://www.foo.com/'],
  ['http://www.foo.com/index.jsp', 'http://www.foo.com/'],
  ['http://www.foo.com/index.jsf', 'http://www.foo.com/'],
  ['http://www.foo.com/index.jspx', 'http://www.foo.com/'],
  ['http://www.foo.com/index.jspfx', 'http://www.foo.com/index.jspfx'],
  ['http://www.foo.com/index.jspa', 'http://www.foo.com/'],
  ['http://www.foo.com/index.jsps', 'http://www.foo.com/index.jsps'],
  ['http://www.foo.com/index.aspX', 'http://www.foo.com/'],
  ['http://www.foo.com/index.PhP', 'http://www.foo.com/'],
  ['http://www.foo.com/index.PhP4', 'http://www.foo.com/'],
  ['http://www.foo.com/default.HTml', 'http://www.foo.com/'],
  ['http://www.foo.com/default.HTm', 'http://www.foo.com/'],
  ['http://www.foo.com/default.ASp', 'http://www.foo.com/'],
  ['http://www.foo.com/default.AspX', 'http://www.foo.com/'],
  ['http://www.foo.com/default.PHP', 'http://www.foo.com/'],
  ['http://www.foo.com/default.PHP3', 'http://www.foo.com/'],
  ['http://www.foo.com/foo.php3', 'http://www.foo.com/foo.php3'],
  ['http://www.foo.com/foo.html', 'http://www.foo.com/foo.html'],
  ['http://www.foo.com/foo.asp', 'http://www.foo.com/foo.asp'],
  ['http://www.foo.com/foo.html#something', 'http://www.foo.com/foo.html'],
  ['http://www.foo.com/foo.html#something?x=y', 'http://www.foo.com/foo.html?x=y'],
  ['http://www.foo.com/foo.html?&x=y', 'http://www.foo.com/foo.html?x=y'],
  ['http://www.foo.com/foo.html?x=y&&&z=a', 'http://www.foo.com/foo.html?x=y&z=a'],
  ['http://www.foo.com/foo.html?', 'http://www.foo.com/foo.html'],
  ['http://www.foo.com//path//foo.html', 'http://www.foo.com/path/foo.html'],
  ['https://www.foo.com//path//foo.html', 'https://www.foo.com/path/foo.html'],
  ['file:///path//foo.html', 'file:/path/foo.html'],
  ['file:/path//foo.html', 'file:/path/foo.html'],
], { files: { 'regex-normalize.xml': NUTCH_SAMPLE_DEFAULT } });

// The shipped conf/regex-normalize.xml (Nutch's template: the default-page rule is commented out).
table('shipped conf/regex-normalize.xml behaves as Nutch\'s default', [
  ['http://foo.com/foo.php?PHPSESSID=cdc993a493e899bed04f4d0c8a462a03', 'http://foo.com/foo.php'],
  ['http://www.foo.com/foo.html;jsessionid=1E6FEC0D14D044541DD84D2D013D29ED?param=1&another=2', 'http://www.foo.com/foo.html?param=1&another=2'],
  ['http://www.foo.com/index.html', 'http://www.foo.com/index.html'],
  ['http://www.foo.com/foo.html#something?x=y', 'http://www.foo.com/foo.html?x=y'],
  ['http://www.foo.com/foo.html?&x=y', 'http://www.foo.com/foo.html?x=y'],
  ['http://www.foo.com/foo.html?x=y&&&z=a', 'http://www.foo.com/foo.html?x=y&z=a'],
  ['http://www.foo.com/foo.html?', 'http://www.foo.com/foo.html'],
  ['http://www.foo.com/foo.html&', 'http://www.foo.com/foo.html'],
  ['http://www.foo.com/dir.', 'http://www.foo.com/dir'],
  ['http://www.foo.com//a///b', 'http://www.foo.com/a/b'],
  ['http://www.foo.com/a?u=http://x.com//y', 'http://www.foo.com/a?u=http://x.com/y'],
  ['file:///etc//passwd', 'file:/etc/passwd'],
  ['http://www.foo.com/fa/newsdetail.aspx?NewsID=1567539', 'http://www.foo.com/fa/newsdetail.aspx?NewsID=1567539'],
  ['http://www.foo.com/a?consid=1', 'http://www.foo.com/a?consid=1'],
  ['http://www.foo.com/a?SID=1&b=2', 'http://www.foo.com/a?b=2'],
  ['http://www.foo.com/plain/path', 'http://www.foo.com/plain/path'],
]);

// Nutch's sample/regex-normalize-scope1.xml and .test, for a named scope.
const SCOPE1 = xml([['(^[a-z]{3,5}://)([\\w]+\\.)*?(\\w+\\.\\w+)[/$].*', '$1$3/']]);
table('Nutch sample regex-normalize-scope1.test (scope "partition")', [
  ['http://www.foo.bar.com/', 'http://bar.com/'],
  ['http://www.foo.bar.com/foo.php?PHPSESSID=cdc993a493e899bed04f4d0c8a462a03', 'http://bar.com/'],
  ['https://www.foo.bar.com/foo.php?url=http://www.example.com/test.php', 'https://bar.com/'],
], { files: { 'scope1.xml': SCOPE1 }, config: { 'urlnormalizer.regex.file.partition': 'scope1.xml' }, scope: 'partition' });

table('a scope without its own file uses the default rules', [
  ['http://www.foo.bar.com/a//b', 'http://www.foo.bar.com/a/b'],
  ['http://www.foo.bar.com/x?', 'http://www.foo.bar.com/x'],
], { files: { 'scope1.xml': SCOPE1 }, config: { 'urlnormalizer.regex.file.partition': 'scope1.xml' }, scope: 'fetcher' });

table('a scope whose file holds no rule falls back to the default rules (as Nutch)', [
  ['http://a.com//b', 'http://a.com/b'],
], { files: { 'empty.xml': '<regex-normalize>\n</regex-normalize>\n' }, config: { 'urlnormalizer.regex.file.outlink': 'empty.xml' }, scope: 'outlink' });

table('Java regex and replacement syntax is translated', [
  ['http://a.com/X1', 'http://a.com/[X1]'],
  ['http://a.com/$', 'http://a.com/\\$'],
  ['http://a.com/ab12', 'http://a.com/12ab0'],
  ['http://a.com/Qq', 'http://a.com/qq'],
  ['http://a.com/p/CaSe', 'http://a.com/p/case'],
  ['http://a.com/lit.*', 'http://a.com/literal'],
  ['http://a.com/?x=1&amp;y=2', 'http://a.com/?x=1&y=2'],
  ['http://a.com/named-7', 'http://a.com/n7'],
  ['http://a.com/[z]', 'http://a.com/bracket'],
  ['http://a.com/tab\tq', 'http://a.com/tabq'],
], {
  config: {
    'urlnormalizer.regex.rules': xml([
      ['/([A-Z]\\d)$', '/\\[$1\\]'],
      ['/\\$$', '/\\\\\\$'],
      ['/([a-z]+)(\\d+)$', '/$2$10'],
      ['(?i)/q(q)$', '/q$1'],
      ['/p/((?i)case)', '/p/case'],
      ['/\\Qlit.*\\E$', '/literal'],
      ['&amp;', '&'],
      ['/named-(?<num>\\p{Digit})', '/n${num}'],
      ['/[]\\[][z]]', '/bracket'],
      ['\\h\\p{Alpha}$', 'q'],
    ]),
  },
});

table('more Java constructs: greedy $nn, \\x{..}, octal, \\A/\\z, (?i) classes, (?i:..), \\v, \\R', [
  ['http://a.com/g7', 'http://a.com/G72'],
  ['http://a.com/hexA', 'http://a.com/hex-a'],
  ['http://a.com/octB', 'http://a.com/oct-b'],
  ['https://a.com/anchored', 'https://a.com/ANCHORED'],
  ['http://a.com/CLASS-Xyz', 'http://a.com/class'],
  ['http://a.com/scoped/AbC/ABC', 'http://a.com/scoped/ok/ABC'],
  ['http://a.com/v\u000bv', 'http://a.com/vv'],
  ['http://a.com/r\r\nr', 'http://a.com/rr'],
  ['http://a.com/dollar', 'http://a.com/$dollar'],
], {
  config: {
    'urlnormalizer.regex.rules': JSON.stringify([
      { pattern: '/g(\\d)$', substitution: '/G$12' },
      { pattern: '/hex\\x{41}$', substitution: '/hex-a' },
      { pattern: '/oct\\0102$', substitution: '/oct-b' },
      { pattern: '\\Ahttps://a\\.com/anchored\\z', substitution: 'https://a.com/ANCHORED' },
      { pattern: '(?i)/class-[x-z]+$', substitution: '/class' },
      { pattern: '/scoped/(?i:abc)/', substitution: '/scoped/ok/' },
      { pattern: 'v\\vv', substitution: 'vv' },
      { pattern: 'r\\Rr', substitution: 'rr' },
      { pattern: '/(dollar)$', substitution: '/\\$$1' },
    ]),
  },
});

// One translator with urlfilter-regex (lib-regex-filter): the constructs JavaScript lacks are rewritten
// for replace-all too, and $n still names Java's group n although the rewrite adds groups.
table('possessive quantifiers, atomic groups and class intersection, as Java', [
  ['http://a.com/aaab', 'http://a.com/X'],
  ['http://b.com/mnop', 'http://b.com/[mno]p'],
  ['http://c.com/xyz', 'http://c.com/x_z'],
  ['http://d.com/p/q', 'http://d.com/p-q'],
  ['http://e.com/aaa', 'http://e.com/aaa'],
], { files: { 'r.xml': xml([
  ['a++b', 'X'],
  ['(?>(mno))p', '[$1]p'],
  ['[a-z&&[^xz]]{1}(?=z)', '_'],
  ['(/p)++/(q)', '$1-$2'],
  ['a*+a', 'never'],
]) }, config: { 'urlnormalizer.regex.file': 'r.xml' } });

table('the JSON form of the rules', [
  ['http://a.com/index.php?sid=1', 'http://a.com/?sid=1'],
  ['http://a.com/keep', 'http://a.com/keep'],
], { files: { 'rules.json': JSON.stringify({ rules: [{ pattern: '/index\\.php', substitution: '/' }] }) }, config: { 'urlnormalizer.regex.file': 'rules.json' } });

table('inline urlnormalizer.regex.rules take precedence over the file', [
  ['http://a.com/x', 'http://b.com/x'],
  ['http://a.com//x', 'http://b.com//x'],
], { config: { 'urlnormalizer.regex.rules': '[{"pattern":"//a\\\\.com","substitution":"//b.com"}]' } });

table('an empty urlnormalizer.regex.file means no rules', [
  ['http://a.com//x?', 'http://a.com//x?'],
], { config: { 'urlnormalizer.regex.file': '' } });

async function loadError(setup: Setup): Promise<{ code?: string; message: string }> {
  try {
    await normalizeAll(['http://a.com/'], setup);
  } catch (err) {
    return err as { code?: string; message: string };
  }
  assert.fail('expected the plugin load to fail');
}

const badRules: [string, string, RegExp][] = [
  ['invalid regex', '<regex-normalize>\n<regex>\n  <pattern>(unclosed</pattern>\n  <substitution></substitution>\n</regex>\n</regex-normalize>\n', /bad\.xml:3: invalid regular expression "\(unclosed"/],
  ['a possessive quantifier that cannot be translated exactly', '<regex-normalize>\n\n<regex><pattern>(a)*+\\1</pattern><substitution/></regex>\n</regex-normalize>', /bad\.xml:3: invalid regular expression/],
  ['unknown \\p class', '<regex-normalize>\n<regex><pattern>\\p{NoSuchClass}</pattern><substitution/></regex></regex-normalize>', /bad\.xml:2: .*NoSuchClass/],
  ['group reference beyond the groups', '<regex-normalize>\n<regex>\n<pattern>(a)</pattern>\n<substitution>$2</substitution></regex></regex-normalize>', /bad\.xml:3: invalid substitution "\$2": no group 2/],
  ['dangling $ in substitution', '<regex-normalize><regex><pattern>a</pattern><substitution>x$</substitution></regex></regex-normalize>', /bad\.xml:1: invalid substitution/],
  ['missing substitution', '<regex-normalize>\n<regex>\n<pattern>a</pattern>\n</regex></regex-normalize>', /bad\.xml:2: <regex> has no <substitution>/],
  ['empty pattern', '<regex-normalize>\n<regex><pattern></pattern><substitution/></regex></regex-normalize>', /bad\.xml:2: <regex> has no \(or an empty\) <pattern>/],
  ['wrong root element', '<?xml version="1.0"?>\n<rules></rules>', /bad\.xml:2: top-level element is <rules>/],
  ['unclosed element', '<regex-normalize>\n<regex>\n<pattern>a</pattern>\n', /bad\.xml:2: element <regex> opened on line 2 is never closed|bad\.xml:\d+: element <regex>/],
  ['mismatched closing tag', '<regex-normalize>\n<regex><pattern>a</substitution></regex></regex-normalize>', /bad\.xml:2: closing tag <\/substitution> does not match <pattern>/],
  ['bare ampersand', '<regex-normalize>\n<regex><pattern>a&b</pattern><substitution/></regex></regex-normalize>', /bad\.xml:2: a bare "&" must be written &amp;/],
  ['unknown element', '<regex-normalize>\n<rule><pattern>a</pattern><substitution/></rule></regex-normalize>', /bad\.xml:2: unexpected element <rule>/],
  ['bad JSON', '{"rules": [', /bad\.xml: not valid JSON/],
  ['JSON rule without pattern', '{"rules": [{"substitution": ""}]}', /bad\.xml#\/rules\/0\/pattern: missing or empty "pattern"/],
];
for (const [name, text, message] of badRules) {
  test(`load error with file and line: ${name}`, async () => {
    const err = await loadError({ files: { 'bad.xml': text }, config: { 'urlnormalizer.regex.file': 'bad.xml' } });
    assert.equal(err.code, 'NUTCH_RULE_FILE_INVALID');
    assert.match(err.message, message);
  });
}

test('a missing rule file is a configuration error naming the property', async () => {
  const err = await loadError({ config: { 'urlnormalizer.regex.file': 'no-such-file.xml' } });
  assert.equal(err.code, 'NUTCH_CONFIG_FILE_NOT_FOUND');
  assert.match(err.message, /no-such-file\.xml.*urlnormalizer\.regex\.file/);
});

test('a missing per-scope rule file is a configuration error naming the scoped property', async () => {
  const err = await loadError({ config: { 'urlnormalizer.regex.file.fetcher': 'gone.xml' } });
  assert.equal(err.code, 'NUTCH_CONFIG_FILE_NOT_FOUND');
  assert.match(err.message, /urlnormalizer\.regex\.file\.fetcher/);
});
