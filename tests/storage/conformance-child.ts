/**
 * Child process of the conformance suite's crash and lock tests: opens an engine (storage.url, or
 * the embedded one when empty), begins an update session on a CrawlDb, puts records, says "ready"
 * on stdout and then waits (for a SIGKILL, or for "commit" on stdin).
 * Usage: node --import tsx conformance-child.ts <storageUrl|""> <cwd> <crawlDb> <records>
 */
import readline from 'node:readline';
import { createCrawlDatum } from '../../core/model/crawl-datum.js';
import { PostgresStorageEngine } from '../../core/storage/postgres/postgres-engine.js';
import { SqliteStorageEngine } from '../../core/storage/sqlite/sqlite-engine.js';

const [url, cwd, crawlDb, records] = process.argv.slice(2) as [string, string, string, string];
process.chdir(cwd);
const engine = url ? new PostgresStorageEngine({ url, cwd }) : new SqliteStorageEngine();
const db = await engine.openCrawlDb(crawlDb);
const up = await db.beginUpdate();
const n = Number(records);
await up.put(Array.from({ length: n }, (_, i) => ({ url: `http://crash.example/${i}`, value: createCrawlDatum({ status: 1, fetchTime: i }) })));
await up.delete(['http://keep.example/0']);
process.stdout.write('ready\n');
for await (const line of readline.createInterface({ input: process.stdin })) {
  if (line.trim() === 'commit') {
    await up.commit();
    process.stdout.write('committed\n');
  }
}
