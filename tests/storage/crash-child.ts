/**
 * Child process for the crash tests: runs one stage (inject or generate) on a storage engine that
 * reports every batch it writes on stdout ("crawldb-put N", "segment-append N", "crawldb-commit")
 * and then waits for "go" on stdin, so the parent can SIGKILL it at an exact point.
 * Usage: node --import tsx crash-child.ts <inject|generate> <crawlDb> <urlDir|segmentsDir> [k=v ...]
 * (storage.url=… among the k=v opens the parent's PostgreSQL stores; paths are absolute, so no cwd matters).
 */
import path from 'node:path';
import readline from 'node:readline';
import { createContext } from '../../core/crawl/context.js';
import { silentLogger } from '../../core/log.js';
import { inject } from '../../core/crawl/inject/inject.js';
import { generate } from '../../core/crawl/generate/generate.js';
import { SqliteStorageEngine } from '../../core/storage/sqlite/sqlite-engine.js';
import { PostgresStorageEngine } from '../../core/storage/postgres/postgres-engine.js';
import type { CrawlDb, CrawlDbUpdate, Segment, StagedSegment, StorageEngine } from '../../core/storage/interfaces.js';

const [stage, crawlDb, input, ...defines] = process.argv.slice(2);
const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();

async function report(event: string): Promise<void> {
  process.stdout.write(event + '\n');
  const next = await lines.next();
  if (next.done || next.value.trim() !== 'go') process.exit(9);
}

const config = Object.fromEntries(defines.map((d) => [d.slice(0, d.indexOf('=')), d.slice(d.indexOf('=') + 1)] as [string, string]));
// the parent's engine: storage.url=… when the stage tests run on PostgreSQL (tests/helpers/test-storage.ts)
const storageUrl = config['storage.url'] ?? '';
const real = storageUrl ? new PostgresStorageEngine({ url: storageUrl, batchSize: 100 }) : new SqliteStorageEngine({ batchSize: 100 });
let puts = 0;
let appends = 0;

function reportingSegment<S extends Segment>(seg: S): S {
  const openWriter = seg.openWriter.bind(seg);
  return Object.assign(seg, {
    openWriter: async (...a: Parameters<Segment['openWriter']>) => {
      const w = await openWriter(...a);
      return { ...w, append: async (records: never[]) => { await w.append(records); await report(`segment-append ${++appends}`); } };
    },
  });
}

const engine: StorageEngine = {
  name: 'reporting-sqlite',
  openLinkDb: (p) => real.openLinkDb(p),
  openHostDb: (p) => real.openHostDb(p),
  openSegment: (p) => real.openSegment(p),
  createSegment: async (d, n) => reportingSegment(await real.createSegment(d, n)),
  createStagedSegment: async (d, n) => reportingSegment(await real.createStagedSegment(d, n)) as StagedSegment,
  listSegments: (d) => real.listSegments(d),
  discardStaleStagedSegments: (d) => real.discardStaleStagedSegments(d),
  close: () => real.close(),
  async openCrawlDb(p): Promise<CrawlDb> {
    const db = await real.openCrawlDb(p);
    const begin = db.beginUpdate.bind(db);
    return Object.assign(db, {
      beginUpdate: async (o?: { force?: boolean }): Promise<CrawlDbUpdate> => {
        const up = await begin(o);
        return Object.assign(Object.create(up) as CrawlDbUpdate, {
          put: async (records: Parameters<CrawlDbUpdate['put']>[0]) => { await up.put(records); await report(`crawldb-put ${++puts}`); },
          commit: async () => { await report('crawldb-commit'); await up.commit(); },
          get: up.get.bind(up), getMany: up.getMany.bind(up), scan: up.scan.bind(up), delete: up.delete.bind(up), abort: up.abort.bind(up),
        });
      },
    });
  },
};

const ctx = createContext({ storage: engine, logger: silentLogger, includeBuiltins: true, env: { NUTCH_CONF_DIR: path.dirname(crawlDb) }, config: { 'plugin.includes': 'schedule-default', 'storage.batch.size': 100, ...config } });
const counters = stage === 'inject'
  ? await inject(ctx, { crawlDb, urlDir: input })
  : await generate(ctx, { crawlDb, segmentsDir: input });
await ctx.close();
process.stdout.write(`done ${JSON.stringify(counters)}\n`);
process.exit(0);
