import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Configuration } from '../../core/config/configuration.js';
import { silentLogger } from '../../core/log.js';
import { RobotRulesParser, robotsAgentNames, type RobotsFetch, type RobotsResponse } from '../../core/protocol/robots/index.js';
import { createTestContext } from '../../sdk/testing.js';

function conf(values: Record<string, unknown> = {}): Configuration {
  const ctx = createTestContext({ defines: { 'http.agent.name': 'testbot', ...Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])) } });
  return ctx.conf;
}

function fetchFrom(responses: Record<string, RobotsResponse | Error>): RobotsFetch & { calls: string[] } {
  const calls: string[] = [];
  const f = (async (url: string) => {
    calls.push(url);
    const r = responses[url];
    if (!r) return { code: 404, body: new Uint8Array() };
    if (r instanceof Error) throw r;
    return r;
  }) as unknown as RobotsFetch & { calls: string[] };
  f.calls = calls;
  return f;
}

const body = (s: string) => new TextEncoder().encode(s);
const R = 'http://h.test/robots.txt';

test('robots status: 2xx parsed and cached', async () => {
  const p = new RobotRulesParser(conf(), silentLogger);
  const f = fetchFrom({ [R]: { code: 200, body: body('User-agent: testbot\nDisallow: /no') } });
  assert.equal((await p.getRobotRules('http://h.test/no/1', f)).isAllowed('http://h.test/no/1'), false);
  assert.equal((await p.getRobotRules('http://h.test/yes', f)).isAllowed('http://h.test/yes'), true);
  assert.equal(f.calls.length, 1, 'cached per protocol:host:port');
  await p.getRobotRules('https://h.test/x', f);
  await p.getRobotRules('http://h.test:8080/x', f);
  assert.equal(f.calls.length, 3);
});

for (const [code, allow403, expectAllowed, defer] of [
  [403, true, true, false], [403, false, false, false], [401, true, true, false], [404, true, true, false], [410, true, true, false],
  [500, true, false, true], [503, true, false, true], [429, true, false, true],
] as const) {
  test(`robots status: ${code} (403.allow=${allow403}) -> ${defer ? 'defer visits' : expectAllowed ? 'allow all' : 'forbid all'}`, async () => {
    const p = new RobotRulesParser(conf({ 'http.robots.403.allow': allow403 }), silentLogger);
    const rules = await p.getRobotRules('http://h.test/page', fetchFrom({ [R]: { code, body: body('User-agent: *\nDisallow: /page') } }));
    assert.equal(rules.isAllowed('http://h.test/page'), expectAllowed);
    assert.equal(rules.isDeferVisits(), defer);
  });
}

test('robots status: redirects followed up to 5, then allow all', async () => {
  const p = new RobotRulesParser(conf(), silentLogger);
  const f = fetchFrom({
    [R]: { code: 301, body: new Uint8Array(), location: '/r1' },
    'http://h.test/r1': { code: 302, body: new Uint8Array(), location: 'http://other.test/robots.txt' },
    'http://other.test/robots.txt': { code: 200, body: body('User-agent: *\nDisallow: /') },
  });
  assert.equal((await p.getRobotRules('http://h.test/a', f)).isAllowed('http://h.test/a'), false);
  const loop: Record<string, RobotsResponse> = {};
  for (let i = 0; i < 10; i++) loop[`http://l.test/${i === 0 ? 'robots.txt' : 'r' + i}`] = { code: 302, body: new Uint8Array(), location: `/r${i + 1}` };
  const lf = fetchFrom(loop);
  assert.equal((await p.getRobotRules('http://l.test/a', lf)).isAllowed('http://l.test/a'), true);
  assert.equal(lf.calls.length, 6, 'the first request and 5 redirects');
});

test('robots status: network error allows all and is not cached; 5xx not cached', async () => {
  const p = new RobotRulesParser(conf(), silentLogger);
  const f = fetchFrom({ [R]: new Error('ECONNREFUSED') });
  assert.equal((await p.getRobotRules('http://h.test/a', f)).isAllowed('http://h.test/a'), true);
  await p.getRobotRules('http://h.test/a', f);
  assert.equal(f.calls.length, 2);
  const g = fetchFrom({ 'http://g.test/robots.txt': { code: 503, body: new Uint8Array() } });
  await p.getRobotRules('http://g.test/a', g);
  await p.getRobotRules('http://g.test/b', g);
  assert.equal(g.calls.length, 2);
});

test('robots: allowlisted hosts are never asked; agent names from http.agent.name + http.robots.agents', async () => {
  const c = conf({ 'http.robot.rules.allowlist': 'h.test,10.0.0.1', 'http.robots.agents': 'OtherBot,*' });
  assert.deepEqual(robotsAgentNames(c), ['testbot', 'otherbot']);
  const p = new RobotRulesParser(c, silentLogger);
  const f = fetchFrom({ [R]: { code: 200, body: body('User-agent: *\nDisallow: /') } });
  assert.equal((await p.getRobotRules('http://h.test/a', f)).isAllowed('http://h.test/a'), true);
  assert.equal(f.calls.length, 0);
  const o = fetchFrom({ 'http://o.test/robots.txt': { code: 200, body: body('User-agent: otherbot\nDisallow: /') } });
  assert.equal((await p.getRobotRules('http://o.test/a', o)).isAllowed('http://o.test/a'), false);
});

test('robots: concurrent callers share one fetch', async () => {
  const p = new RobotRulesParser(conf(), silentLogger);
  const f = fetchFrom({ [R]: { code: 200, body: body('User-agent: *\nCrawl-delay: 3') } });
  const all = await Promise.all([1, 2, 3, 4].map((i) => p.getRobotRules(`http://h.test/${i}`, f)));
  assert.equal(f.calls.length, 1);
  assert.ok(all.every((r) => r.getCrawlDelay() === 3000));
});
