/**
 * kill -9 during updatedb: a child process runs the stage and is SIGKILLed at the first batch, in
 * the middle of the merge, and just before the commit. Each time the previous CrawlDb must be intact
 * (readable, same records) and a re-run must give the same CrawlDb as an uninterrupted run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CrawlStatus as S, type CrawlDatum } from '../../core/model/crawl-datum.js';
import { updatedb } from '../../core/crawl/updatedb/updatedb.js';
import { fixtureContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { dbDatum, readCrawlDb, writeCrawlDb, writeSegment, type FetchedPage } from './segment-fixtures.js';

const CHILD = fileURLToPath(new URL('./fixtures/updatedb-child.ts', import.meta.url));
const PAGES = 200;
const LINKS = 10;

function pages(): FetchedPage[] {
  return Array.from({ length: PAGES }, (_, i) => ({
    url: `http://h${i % 5}.example/p${i}`,
    signature: new Uint8Array([i & 255, 1]),
    outlinks: Object.fromEntries(Array.from({ length: LINKS }, (_, j) => [`http://n${j}.example/from${i}`, 0.1])),
  }));
}

function initialDb(): Record<string, CrawlDatum> {
  return Object.fromEntries(Array.from({ length: PAGES }, (_, i) => [`http://h${i % 5}.example/p${i}`, dbDatum(S.STATUS_DB_UNFETCHED, { score: 1 })]));
}

/** Comparable view: status, score, signature, retries (fetch times of new URLs are "now"). */
function view(db: Map<string, CrawlDatum>): Record<string, string> {
  return Object.fromEntries([...db].map(([u, d]) => [u, `${d.status}|${d.score.toFixed(6)}|${d.signature ? [...d.signature].join('.') : '-'}|${d.retries}`]));
}

function runChild(confDir: string, crawlDb: string, segment: string, killAt: string, middleDone: number, storageUrl: string): Promise<{ lines: string[]; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), CHILD, confDir, crawlDb, segment, killAt, String(middleDone), storageUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let buf = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      buf += c;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        lines.push(line);
        if (line === 'stop-here') child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal === null && code !== 0) reject(new Error(`child exited ${code}: ${stderr}`));
      else resolve({ lines, signal });
    });
  });
}

for (const killAt of ['first', 'middle', 'commit'] as const) {
  test(`updatedb killed with SIGKILL at the ${killAt === 'first' ? 'first batch' : killAt === 'middle' ? 'middle of the merge' : 'moment before commit'}: previous CrawlDb intact, re-run correct`, async (t) => {
    const dir = tempDir(t);
    const ctx = fixtureContext(t, { includeBuiltins: true, cwd: dir, env: { NUTCH_CONF_DIR: dir } });
    const crawlDb = path.join(dir, 'crawldb');
    const reference = path.join(dir, 'reference');
    const segment = await writeSegment(ctx.storage, path.join(dir, 'segments'), '20240101000000', { pages: pages() });
    await writeCrawlDb(ctx.storage, crawlDb, initialDb());
    await writeCrawlDb(ctx.storage, reference, initialDb());
    const before = view(await readCrawlDb(ctx.storage, crawlDb));

    const totalWrites = PAGES + PAGES * LINKS;
    const { lines, signal } = await runChild(dir, crawlDb, segment, killAt, Math.floor(totalWrites / 2), ctx.conf.getString('storage.url', ''));
    assert.equal(signal, 'SIGKILL', `killed (child said: ${lines.slice(-3).join(' | ')})`);
    assert.ok(!lines.includes('finished'));
    const reports = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { merging: boolean; total: number | null });
    if (killAt === 'middle') assert.ok(reports.at(-1)!.merging, 'killed while merging');
    if (killAt === 'commit') assert.notEqual(reports.at(-1)!.total, null, 'killed right before the commit');

    assert.deepEqual(view(await readCrawlDb(ctx.storage, crawlDb)), before, 'previous CrawlDb intact after kill -9');

    // The stale lock of the dead child is broken (with a warning) and the stage re-runs.
    await updatedb(ctx, { crawlDb, segments: [segment] });
    await updatedb(ctx, { crawlDb: reference, segments: [segment] });
    const after = view(await readCrawlDb(ctx.storage, crawlDb));
    assert.equal(Object.keys(after).length, PAGES + PAGES * LINKS);
    assert.deepEqual(after, view(await readCrawlDb(ctx.storage, reference)), 're-run equals an uninterrupted run');
  });
}
