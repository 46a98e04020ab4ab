import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRobotsTxt, matchPattern } from '../../core/protocol/robots/index.js';

const H = 'http://example.com';

/** [robots.txt, agents, url path, expected allowed, note] — RFC 9309 and Google's documented examples. */
const cases: [string, string[], string, boolean, string][] = [
  ['', ['foobot'], '/x', true, 'empty file allows all'],
  ['User-agent: *\nDisallow: /', ['foobot'], '/x', false, 'disallow all'],
  ['User-agent: *\nDisallow: /', ['foobot'], '/robots.txt', true, '/robots.txt is always allowed'],
  ['User-agent: *\nDisallow:', ['foobot'], '/x', true, 'empty disallow is no rule'],
  ['User-agent: *\nDisallow: /fish', ['foobot'], '/fish', false, 'prefix /fish'],
  ['User-agent: *\nDisallow: /fish', ['foobot'], '/fish.html', false, 'prefix /fish.html'],
  ['User-agent: *\nDisallow: /fish', ['foobot'], '/fish/salmon.html', false, 'prefix dir'],
  ['User-agent: *\nDisallow: /fish', ['foobot'], '/fishheads', false, 'prefix fishheads'],
  ['User-agent: *\nDisallow: /fish', ['foobot'], '/fish.php?id=anything', false, 'query is part of the path'],
  ['User-agent: *\nDisallow: /fish', ['foobot'], '/Fish.asp', true, 'case-sensitive'],
  ['User-agent: *\nDisallow: /fish', ['foobot'], '/catfish', true, 'not a prefix'],
  ['User-agent: *\nDisallow: /fish*', ['foobot'], '/fishheads/yummy.html', false, 'trailing star = prefix'],
  ['User-agent: *\nDisallow: /fish/', ['foobot'], '/fish', true, 'directory rule does not match the bare name'],
  ['User-agent: *\nDisallow: /fish/', ['foobot'], '/fish/?id=anything', false, 'directory with query'],
  ['User-agent: *\nDisallow: /*.php', ['foobot'], '/index.php', false, 'star in the middle'],
  ['User-agent: *\nDisallow: /*.php', ['foobot'], '/folder/any.php.file.html', false, 'star then substring'],
  ['User-agent: *\nDisallow: /*.php', ['foobot'], '/windows.PHP', true, 'star, case-sensitive'],
  ['User-agent: *\nDisallow: /*.php$', ['foobot'], '/filename.php', false, 'dollar anchors'],
  ['User-agent: *\nDisallow: /*.php$', ['foobot'], '/filename.php?parameters', true, 'dollar: query after'],
  ['User-agent: *\nDisallow: /*.php$', ['foobot'], '/filename.php/', true, 'dollar: slash after'],
  ['User-agent: *\nDisallow: /fish*.php', ['foobot'], '/fishheads/catfish.php?parameters', false, 'two stars'],
  ['User-agent: *\nDisallow: /fish*.php', ['foobot'], '/Fish.PHP', true, 'two stars, case'],
  ['User-agent: *\nAllow: /p\nDisallow: /', ['foobot'], '/page', true, 'longest match: allow /p'],
  ['User-agent: *\nAllow: /folder\nDisallow: /folder', ['foobot'], '/folder/page', true, 'tie: allow wins'],
  ['User-agent: *\nAllow: /page\nDisallow: /*.html', ['foobot'], '/page.html', false, 'longer disallow wins'],
  ['User-agent: *\nAllow: /$\nDisallow: /', ['foobot'], '/', true, 'allow root only'],
  ['User-agent: *\nAllow: /$\nDisallow: /', ['foobot'], '/page.htm', false, 'allow root only: others denied'],
  ['User-agent: *\nDisallow: /\n\nUser-agent: foobot\nAllow: /', ['foobot'], '/x', true, 'specific group beats *'],
  ['User-agent: *\nAllow: /\n\nUser-agent: foobot\nDisallow: /', ['foobot'], '/x', false, 'specific group only'],
  ['User-agent: FooBot\nDisallow: /', ['foobot'], '/x', false, 'agent case-insensitive'],
  ['User-agent: foobot/1.2\nDisallow: /', ['foobot'], '/x', false, 'product token before version'],
  ['User-agent: foobot-news\nDisallow: /', ['foobot'], '/x', true, 'no substring agent match'],
  ['User-agent: barbot\nDisallow: /', ['foobot'], '/x', true, 'other agent only: allowed'],
  ['User-agent: a\nUser-agent: foobot\nDisallow: /x', ['foobot'], '/x', false, 'multi-agent group'],
  ['User-agent: foobot\nDisallow: /a\n\nUser-agent: foobot\nDisallow: /b', ['foobot'], '/b', false, 'groups for one agent merge'],
  ['User-agent: foobot\nDisallow: /a\nUser-agent: other\nDisallow: /b', ['foobot'], '/b', true, 'user-agent after rules starts a new group'],
  ['Disallow: /\nUser-agent: *\nDisallow: /y', ['foobot'], '/x', true, 'rules before any group are ignored'],
  ['User-agent: *\nDisallow: /x # comment', ['foobot'], '/x', false, 'comment stripped'],
  ['# only a comment\nUser-agent: * # all\nDisallow: /x', ['foobot'], '/x/y', false, 'comment lines'],
  ['User-agent: *\r\nDisallow: /x\r\n', ['foobot'], '/x', false, 'CRLF'],
  ['User-agent: *\rDisallow: /x\r', ['foobot'], '/x', false, 'CR only'],
  ['\uFEFFUser-agent: *\nDisallow: /x', ['foobot'], '/x', false, 'BOM'],
  ['user-agent: *\ndisallow: /x', ['foobot'], '/x', false, 'keys case-insensitive'],
  ['User-agent: *\nDisallow /x', ['foobot'], '/x', false, 'missing colon tolerated'],
  ['User-agent: *\nDisalow: /x', ['foobot'], '/x', false, 'common typo'],
  ['User-agent: *\nDisallow: /%E4%BD%A0', ['foobot'], '/你', false, 'non-ASCII path vs encoded pattern'],
  ['User-agent: *\nDisallow: /你', ['foobot'], '/%e4%bd%a0', false, 'encoded path vs non-ASCII pattern'],
  ['User-agent: *\nDisallow: /a%3cd', ['foobot'], '/a%3Cd', false, 'escape case-insensitive'],
  ['User-agent: *\nDisallow: /*', ['foobot'], '/anything', false, 'slash star'],
  ['User-agent: *\nDisallow: *', ['foobot'], '/anything', false, 'bare star'],
  ['<html><body>Not robots</body></html>', ['foobot'], '/x', true, 'HTML served as robots.txt: allow all'],
  ['User-agent: otherbot\nDisallow: /\nUser-agent: *\nAllow: /', ['foobot', 'otherbot'], '/x', false, 'second agent name matches'],
  ['User-agent: *\nSitemap: http://x/s.xml\nDisallow: /x', ['foobot'], '/x', false, 'sitemap does not split a group'],
  // an agent name holding a digit matches its own group, never falls under *
  ['User-agent: crawler2\nDisallow: /\n\nUser-agent: *\nAllow: /', ['crawler2'], '/x', false, 'agent name with a digit matches its group'],
  ['User-agent: Agent1\nDisallow: /private\n\nUser-agent: *\nDisallow: /', ['agent1'], '/public', true, 'Agent1 group, not *'],
  ['User-agent: crawler2\nDisallow: /\n\nUser-agent: *\nAllow: /', ['crawler3'], '/x', true, 'crawler2 group is not crawler3s'],
  ['User-agent: crawler2/1.0\nDisallow: /', ['crawler2'], '/x', true, 'a digit ends the product token of a versioned value'],
  // percent-encoding in rules and paths
  ['User-agent: *\nDisallow: /%24', ['foobot'], '/$100', false, '%24 rule blocks a literal $'],
  ['User-agent: *\nDisallow: /$100', ['foobot'], '/%24100', false, 'literal $ in a rule is an anchor only at the end'],
  ['User-agent: *\nDisallow: /%2A', ['foobot'], '/abc', true, '%2A is a literal star, not a wildcard'],
  ['User-agent: *\nDisallow: /%2A', ['foobot'], '/*x', false, '%2A matches a literal star'],
  ['User-agent: *\nDisallow: /\nAllow: /~mak', ['foobot'], '/%7Emak/a.html', true, 'encoded tilde in the path vs ~ in the rule'],
  ['User-agent: *\nDisallow: /\nAllow: /%7Emak/', ['foobot'], '/~mak/a.html', true, 'encoded tilde in the rule vs ~ in the path'],
  ['User-agent: *\nDisallow: /a%', ['foobot'], '/a%25', false, 'a stray % is %25'],
  // group boundaries
  ['User-agent: foobot\nCrawl-delay: 5\nUser-agent: barbot\nDisallow: /x', ['foobot'], '/x', false, 'a Crawl-delay-only group merges into the next'],
  ['User-agent: foobot\nFoo: bar\nUser-agent: barbot\nDisallow: /x', ['foobot'], '/x', false, 'an unknown line does not end the user-agent run'],
  ['User-agent: barbot, foobot\nDisallow: /x', ['foobot'], '/x', false, 'comma-separated names on one line'],
  ['User-agent: barbot,foobot\nDisallow: /x\nUser-agent: *\nDisallow: /', ['barbot'], '/y', true, 'comma-separated names: first'],
];

for (const [txt, agents, path, expected, note] of cases) {
  test(`robots: ${note}`, () => {
    const rules = parseRobotsTxt(txt, agents);
    assert.equal(rules.isAllowed(H + path), expected, `${JSON.stringify(txt)} ${path}`);
  });
}

test('robots: crawl-delay, sitemaps, 500 KiB limit', () => {
  const r = parseRobotsTxt('Sitemap: http://example.com/a.xml\nUser-agent: foobot\nCrawl-delay: 2.5\nDisallow: /x\nsitemap: http://example.com/b.xml', ['foobot']);
  assert.equal(r.getCrawlDelay(), 2500);
  assert.deepEqual(r.getSitemaps(), ['http://example.com/a.xml', 'http://example.com/b.xml']);
  assert.equal(parseRobotsTxt('User-agent: *\nCrawl-delay: soon', ['x']).getCrawlDelay(), -1);
  const huge = 'User-agent: *\n' + '# filler\n'.repeat(60_000) + 'Disallow: /late\n';
  assert.ok(huge.length > 500 * 1024);
  assert.equal(parseRobotsTxt(Buffer.from(huge), ['x']).isAllowed(H + '/late'), true, 'rules after 500 KiB are ignored');
  const binary = new Uint8Array(4096).map((_, i) => (i * 37) % 256);
  assert.equal(parseRobotsTxt(binary, ['x']).isAllowed(H + '/any'), true);
});

test('robots: a Crawl-delay-only group gives its delay to the merged group', () => {
  const r = parseRobotsTxt('User-agent: foobot\nCrawl-delay: 5\nUser-agent: barbot\nDisallow: /x', ['barbot']);
  assert.equal(r.getCrawlDelay(), 5000);
  assert.equal(r.isAllowed(H + '/x'), false);
});

test('robots: UTF-16 with a byte order mark', () => {
  const txt = 'User-agent: *\nDisallow: /x\n';
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(txt, 'utf16le')]);
  const be = Buffer.from(le.subarray(2)).swap16();
  assert.equal(parseRobotsTxt(le, ['foobot']).isAllowed(H + '/x'), false, 'UTF-16LE');
  assert.equal(parseRobotsTxt(Buffer.concat([Buffer.from([0xfe, 0xff]), be]), ['foobot']).isAllowed(H + '/x'), false, 'UTF-16BE');
  assert.equal(parseRobotsTxt(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(txt)]), ['foobot']).isAllowed(H + '/x'), false, 'UTF-8 BOM');
});

test('robots: pattern matching has no backtracking blow-up', () => {
  const pattern = '/' + '*a'.repeat(30) + '$';
  const path = '/' + 'a'.repeat(5000) + 'b';
  const t0 = performance.now();
  assert.equal(matchPattern(pattern, path), false);
  // Backtracking would take hours here; 10 s only separates linear from exponential on a loaded machine.
  assert.ok(performance.now() - t0 < 10_000);
});
