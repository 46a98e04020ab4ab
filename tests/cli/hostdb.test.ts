/**
 * updatehostdb and readhostdb through the real CLI (child processes) on a real crawl of the test web:
 * per-host counts checked against the CrawlDb itself, home pages against the test web, statistics,
 * the DNS checks (through a hosts file: no real DNS), -expr, and the bad inputs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnNutch } from '../helpers/cli.js';
import { crawledWeb } from '../helpers/crawled-web.js';
import { fixtureContext } from '../helpers/context.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import { CrawlStatus } from '../../core/model/crawl-datum.js';

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

/** Per host: [unfetched, fetched, gone, redirTemp, redirPerm, notModified], counted from the CrawlDb. */
async function countsFromCrawlDb(t: Parameters<typeof fixtureContext>[0], cwd: string): Promise<Map<string, number[]>> {
  const ctx = fixtureContext(t, { cwd });
  const db = await ctx.storage.openCrawlDb(join(cwd, 'crawl/crawldb'));
  const order = [CrawlStatus.STATUS_DB_UNFETCHED, CrawlStatus.STATUS_DB_FETCHED, CrawlStatus.STATUS_DB_GONE, CrawlStatus.STATUS_DB_REDIR_TEMP, CrawlStatus.STATUS_DB_REDIR_PERM, CrawlStatus.STATUS_DB_NOTMODIFIED] as number[];
  const out = new Map<string, number[]>();
  for await (const { url, value } of db.scan()) {
    const host = new URL(url).hostname;
    const counts = out.get(host) ?? [0, 0, 0, 0, 0, 0];
    const i = order.indexOf(value.status);
    if (i >= 0) counts[i]!++;
    out.set(host, counts);
  }
  await db.close();
  return out;
}

test('updatehostdb counts each host of a crawl as the CrawlDb holds it; readhostdb dumps, filters and lists', async (t) => {
  const { web, cwd } = await crawledWeb(t, { hosts: 3, pagesPerHost: 6, linksPerPage: 3, seed: 19 }, { rounds: 2 });
  const env = { NUTCH_CONF_DIR: cwd };
  writeFile(join(cwd, 'nutch-site.json'), { 'http.agent.name': 'hostdb-test' });

  const u = await spawnNutch(['updatehostdb', '-hostdb', 'crawl/hostdb', '-crawldb', 'crawl/crawldb', '-D', 'hostdb.numeric.fields=_rs_,score'], { cwd, env });
  assert.equal(u.code, 0, u.stderr);
  assert.match(u.stdout, /total_hosts=3\b/);

  const r = await spawnNutch(['readhostdb', 'crawl/hostdb', 'dump'], { cwd, env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /3 of 3 hosts written/);
  const expected = await countsFromCrawlDb(t, cwd);
  const dumped = lines(join(cwd, 'dump', 'part-00000'));
  assert.deepEqual(dumped.map((l) => l.split('\t')[0]), [...expected.keys()].sort(), 'one line per host, in host order');
  for (const line of dumped) {
    const f = line.split('\t');
    const host = f[0]!;
    const want = expected.get(host)!;
    // Nutch's HostDatum.toString(): unfetched fetched gone redirTemp redirPerm notModified numRecords dnsFailures connectionFailures numFailures score lastCheck homepage metadata
    assert.deepEqual(f.slice(1, 7).map(Number), want, `${host}: counts per status`);
    assert.equal(Number(f[7]), want.reduce((a, b) => a + b, 0), `${host}: numRecords`);
    assert.equal(f[8], '0', 'no DNS check ran');
    assert.equal(f[13], `http://${web.hosts[web.hosts.findIndex((hp) => hp.startsWith(host + ':'))]}/`, `${host}: home page`);
    assert.match(f[14]!, /(^|\|\|\|)avg\.score:[0-9.E-]+\|\|\|/, `${host}: score statistics`);
    assert.match(f[14]!, /min\.score:.*max\.score:|max\.score:.*min\.score:/);
    assert.match(f[14]!, /pct95\.score:/);
    assert.ok(Number(f[2]) > 0, `${host} has fetched pages`);
  }

  const names = await spawnNutch(['readhostdb', 'crawl/hostdb', 'names', '-dumpHostnames'], { cwd, env });
  assert.equal(names.code, 0, names.stderr);
  assert.deepEqual(lines(join(cwd, 'names', 'part-00000')), [...expected.keys()].sort());
  const homes = await spawnNutch(['readhostdb', 'crawl/hostdb', 'homes', '-dumpHomepages'], { cwd, env });
  assert.equal(homes.code, 0, homes.stderr);
  assert.deepEqual(lines(join(cwd, 'homes', 'part-00000')).sort(), [...web.seeds].sort());

  // -expr: a host chosen by its counts; a variable only some hosts lack skips them with a count
  const [firstHost, firstCounts] = [...expected.entries()].sort(([a], [b]) => (a < b ? -1 : 1))[0]!;
  const e = await spawnNutch(['readhostdb', 'crawl/hostdb', 'picked', '-dumpHostnames', '-expr', `fetched == ${firstCounts[1]} && unfetched == ${firstCounts[0]} && dnsFailures == 0`], { cwd, env });
  assert.equal(e.code, 0, e.stderr);
  assert.ok(lines(join(cwd, 'picked', 'part-00000')).includes(firstHost));
  const none = await spawnNutch(['readhostdb', 'crawl/hostdb', 'none', '-expr', 'ok > numRecords'], { cwd, env });
  assert.equal(none.code, 0, none.stderr);
  assert.match(none.stdout, /0 of 3 hosts written/);
  const unknown = await spawnNutch(['readhostdb', 'crawl/hostdb', 'unknown', '-expr', 'nosuch.field > 1'], { cwd, env });
  assert.equal(unknown.code, 0, unknown.stderr);
  assert.match(unknown.stdout, /0 of 3 hosts written.*3 skipped \(expression errors\)/);
  assert.match(unknown.stderr, /unknown variable nosuch\.field/);

  // a second update without the CrawlDb keeps what the first counted
  const again = await spawnNutch(['updatehostdb', '-hostdb', 'crawl/hostdb'], { cwd, env });
  assert.equal(again.code, 0, again.stderr);
  const r2 = await spawnNutch(['readhostdb', 'crawl/hostdb', 'dump2'], { cwd, env });
  assert.equal(r2.code, 0, r2.stderr);
  assert.deepEqual(lines(join(cwd, 'dump2', 'part-00000')), dumped);
});

test('updatehostdb -checkNew / -checkFailed: DNS failures counted, a host failing past the threshold purged (hosts file, no DNS)', async (t) => {
  const { web, cwd } = await crawledWeb(t, { hosts: 1, pagesPerHost: 2, linksPerPage: 1, seed: 3 }, { rounds: 1 });
  const webHost = new URL(web.seeds[0]!).hostname;
  const env = { NUTCH_CONF_DIR: cwd };
  writeFile(join(cwd, 'nutch-site.json'), { 'http.agent.name': 'hostdb-test', 'hostdb.resolver.hosts.file': 'hosts.txt', 'hostdb.purge.failed.hosts.threshold': 1 });
  writeFile(join(cwd, 'hosts.txt'), '127.0.0.1 localhost known.test\n# gone.test is not listed\n');
  writeFile(join(cwd, 'urls', 'seeds.txt'), 'http://gone.test/\nhttp://known.test/page\n');
  const inj = await spawnNutch(['inject', 'crawl/crawldb', 'urls'], { cwd, env });
  assert.equal(inj.code, 0, inj.stderr);

  const first = await spawnNutch(['updatehostdb', '-hostdb', 'crawl/hostdb', '-crawldb', 'crawl/crawldb', '-checkNew'], { cwd, env });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /new_known_host=2\b/);
  assert.match(first.stdout, /new_unknown_host=1\b/);
  assert.match(first.stdout, /checked_hosts=3\b/);
  const failed = await spawnNutch(['readhostdb', 'crawl/hostdb', 'failed', '-dumpHostnames', '-expr', 'dnsFailures > 0'], { cwd, env });
  assert.equal(failed.code, 0, failed.stderr);
  assert.deepEqual(lines(join(cwd, 'failed', 'part-00000')), ['gone.test']);

  // not due yet (hostdb.recheck.interval): nothing checked without -force
  const early = await spawnNutch(['updatehostdb', '-hostdb', 'crawl/hostdb', '-checkFailed', '-checkKnown'], { cwd, env });
  assert.equal(early.code, 0, early.stderr);
  assert.doesNotMatch(early.stdout, /checked_hosts/);
  assert.match(early.stdout, /skipped_not_eligible=3\b/);

  const forced = await spawnNutch(['updatehostdb', '-hostdb', 'crawl/hostdb', '-checkFailed', '-force'], { cwd, env });
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(forced.stdout, /purged_unknown_host=1\b/);
  const left = await spawnNutch(['readhostdb', 'crawl/hostdb', 'left', '-dumpHostnames'], { cwd, env });
  assert.equal(left.code, 0, left.stderr);
  assert.deepEqual(lines(join(cwd, 'left', 'part-00000')), [webHost, 'known.test']);

  // -filter: hosts go through the URL filters as http://<host>/; a rejected host leaves the HostDb
  writeFile(join(cwd, 'regex-urlfilter.txt'), '-^http://known\\.test/\n+.\n');
  const filtered = await spawnNutch(['updatehostdb', '-hostdb', 'crawl/hostdb', '-filter'], { cwd, env });
  assert.equal(filtered.code, 0, filtered.stderr);
  assert.match(filtered.stdout, /filtered_records=1\b/);
  assert.match(filtered.stdout, /total_hosts=1\b/);
});

test('readhostdb of a missing HostDb names it and says how to build it', async (t) => {
  const cwd = tempDir(t);
  const r = await spawnNutch(['readhostdb', 'nowhere/hostdb', 'out'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  assert.equal(r.code, 3);
  assert.match(r.stderr, /HostDb .*nowhere\/hostdb does not exist \(run nutch updatehostdb/);
});

test('updatehostdb without -hostdb, or without a CrawlDb for a new HostDb, or with a missing CrawlDb, says what is wrong', async (t) => {
  const cwd = tempDir(t);
  const env = { NUTCH_CONF_DIR: cwd };
  const noHostDb = await spawnNutch(['updatehostdb', '-crawldb', 'crawl/crawldb'], { cwd, env });
  assert.equal(noHostDb.code, 2);
  assert.match(noHostDb.stderr, /-hostdb <hostdb> is mandatory/);
  const nothing = await spawnNutch(['updatehostdb', '-hostdb', 'crawl/hostdb'], { cwd, env });
  assert.equal(nothing.code, 3);
  assert.match(nothing.stderr, /HostDb .*crawl\/hostdb does not exist: give -crawldb/);
  const missing = await spawnNutch(['updatehostdb', '-hostdb', 'crawl/hostdb', '-crawldb', 'crawl/nocrawldb'], { cwd, env });
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /CrawlDb .*crawl\/nocrawldb does not exist/);
});

test('readhostdb -expr that does not parse names the option and the position, before reading anything', async (t) => {
  const cwd = tempDir(t);
  const r = await spawnNutch(['readhostdb', 'crawl/hostdb', 'out', '-expr', 'fetched > '], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /readhostdb -expr "fetched > ": expected a number, text, variable or "\(", found the end of the expression at position 11/);
  const r2 = await spawnNutch(['readhostdb', 'crawl/hostdb', 'out', '-expr', 'fetched # 2'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  assert.equal(r2.code, 2);
  assert.match(r2.stderr, /unexpected character "#" at position 9/);
});
