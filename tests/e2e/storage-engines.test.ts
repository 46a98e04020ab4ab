/**
 * The same 2-round crawl of the test web through the real CLI (child processes), once on the embedded
 * SQLite engine and once on PostgreSQL (`-D storage.url=…` on every command): the same `readdb -stats`
 * counts, the same LinkDb size, the same search hits. Only the storage engine differs.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnNutch } from '../helpers/cli.js';
import { startPostgres, type PgServer } from '../helpers/postgres-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestWeb, type TestWeb } from '../web/test-web.js';

let server: PgServer | null = null;
let web: TestWeb;

before(async () => {
  server = await startPostgres();
  web = await startTestWeb({ hosts: 3, pagesPerHost: 8, linksPerPage: 3, seed: 11 });
});
after(async () => {
  await web?.close();
  await server?.stop();
});

interface CrawlOutcome {
  stats: string;
  linkdb: string;
  hits: string[];
}

async function crawlOn(t: { after(fn: () => void): void }, storageUrl: string): Promise<CrawlOutcome> {
  const cwd = tempDir(t);
  mkdirSync(join(cwd, 'urls'));
  writeFileSync(join(cwd, 'urls', 'seed.txt'), web.seeds.join('\n') + '\n');
  const storage = storageUrl ? ['-D', `storage.url=${storageUrl}`] : [];
  const run = async (argv: string[]) => {
    const r = await spawnNutch([...argv, ...storage], { cwd });
    assert.equal(r.code, 0, `${argv.join(' ')} on ${storageUrl || 'sqlite'}: ${r.stderr}`);
    return r.stdout;
  };
  await run(['crawl', '-i', '-D', 'http.agent.name=engines-test', '-Dfetcher.server.delay=0', '--num-threads', '4', '-s', 'urls', 'crawl', '2']);
  const stats = await run(['readdb', 'crawl/crawldb', '-stats']);
  const linkdb = await run(['readlinkdb', 'crawl/linkdb', '-url', web.seeds[1]!]);
  const found = await run(['search', 'crawl', '"page"', '-n', '100']);
  const hits = found.split('\n').map((l) => /https?:\/\/\S+/.exec(l)?.[0]).filter((u): u is string => u !== undefined).sort();
  return { stats, linkdb, hits };
}

/** The counts of readdb -stats, without the score and time figures that depend on when pages were fetched. */
function counts(stats: string): string[] {
  return stats.split('\n').filter((l) => /^(TOTAL urls|status \d+|retry \d+)/.test(l.trim())).map((l) => l.trim().replace(/\s+/g, ' '));
}

test('a 2-round crawl gives the same readdb -stats counts and search hits on SQLite and on PostgreSQL', async (t) => {
  if (!server) return t.skip('PostgreSQL 15 (initdb) is not installed');
  const sqlite = await crawlOn(t, '');
  const postgres = await crawlOn(t, `${server.url}?schema=e2e`);
  const sqliteCounts = counts(sqlite.stats);
  assert.ok(sqliteCounts.some((l) => l.startsWith('TOTAL urls')), sqlite.stats);
  assert.ok(sqliteCounts.some((l) => /^status 2 \(db_fetched\)/.test(l)), sqlite.stats);
  assert.deepEqual(counts(postgres.stats), sqliteCounts);
  assert.ok(sqlite.hits.length > 5, `search finds pages: ${sqlite.hits.length}`);
  assert.deepEqual(postgres.hits, sqlite.hits);
  assert.equal(postgres.linkdb.trim().split('\n').length, sqlite.linkdb.trim().split('\n').length);
});
