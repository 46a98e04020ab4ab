/**
 * Child process for the frozen-writer test: claims partition 0 of a PostgreSQL segment with a 1 s
 * lease and appends to crawl_fetch under that claim, one record per transaction, until a write fails.
 * Prints "appended N" after each committed append and "error CODE" when a write is refused, then exits.
 * Usage: node --import tsx fenced-writer-child.ts <storage.url> <segment path>
 */
import { PostgresStorageEngine } from '../../core/storage/postgres/postgres-engine.js';
import { datum } from './conformance.js';

const [url, segPath] = process.argv.slice(2) as [string, string];
const engine = new PostgresStorageEngine({ url });
const seg = await engine.openSegment(segPath);
const { claim } = await seg.fetchPartitions().claim('frozen-writer', { leaseMs: 1000, maxAttempts: 4 });
if (!claim) throw new Error('partition 0 not claimable');
const writer = await seg.openWriter('crawl_fetch', 0, { fence: claim });
try {
  for (let i = 0; ; i++) {
    await writer.append([{ url: `http://h0/${i}`, value: datum(i) }]);
    process.stdout.write(`appended ${i + 1}\n`);
  }
} catch (err) {
  process.stdout.write(`error ${(err as { code?: string }).code ?? 'none'} ${(err as Error).message}\n`);
} finally {
  await writer.close();
  await seg.close();
  await engine.close();
}
