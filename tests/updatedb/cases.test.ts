/**
 * updatedb fixture folders: tests/updatedb/cases/<case>/input.json (CrawlDb entries, segments of
 * fetched pages with signatures and outlinks, -D properties, stage args) and expected.json (the
 * fields to check per CrawlDb entry — the key set must match exactly — and counters).
 * Statuses are written by name, signatures in hex.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { statusName, statusNames, type CrawlDatum } from '../../core/model/crawl-datum.js';
import { updatedb, type UpdateDbArgs } from '../../core/crawl/updatedb/updatedb.js';
import { fixtureContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { dbDatum, readCrawlDb, writeCrawlDb, writeSegment, type FetchedPage } from './segment-fixtures.js';

const CASES = fileURLToPath(new URL('./cases/', import.meta.url));

type Fields = Partial<Record<'status' | 'score' | 'signature' | 'retries' | 'fetchInterval' | 'fetchTime' | 'modifiedTime', string | number>>;
interface Input {
  description: string;
  defines?: Record<string, string>;
  args?: Partial<UpdateDbArgs>;
  crawldb: Record<string, Fields>;
  segments: { pages: (Omit<FetchedPage, 'status' | 'signature'> & { status?: string; signature?: string })[] }[];
}
interface Expected {
  crawldb: Record<string, Fields>;
  counters?: Record<string, number>;
}

const codeOf = (name: string): number => {
  const entry = Object.entries(statusNames).find(([, n]) => n === name);
  if (!entry) throw new Error(`unknown status name ${name}`);
  return Number(entry[0]);
};
const hex = (s: string) => new Uint8Array(Buffer.from(s, 'hex'));

function toDatum(f: Fields): CrawlDatum {
  const { status, signature, ...rest } = f;
  return dbDatum(codeOf(String(status ?? 'db_unfetched')), { ...(rest as Partial<CrawlDatum>), signature: signature ? hex(String(signature)) : null });
}

function view(d: CrawlDatum, keys: string[]): Fields {
  const out: Fields = {};
  for (const k of keys) {
    if (k === 'status') out.status = statusName(d.status);
    else if (k === 'signature') out.signature = d.signature ? Buffer.from(d.signature).toString('hex') : '';
    else (out as Record<string, unknown>)[k] = (d as unknown as Record<string, unknown>)[k];
  }
  return out;
}

for (const name of fs.readdirSync(CASES).sort()) {
  const input = JSON.parse(fs.readFileSync(path.join(CASES, name, 'input.json'), 'utf8')) as Input;
  const expected = JSON.parse(fs.readFileSync(path.join(CASES, name, 'expected.json'), 'utf8')) as Expected;
  test(`updatedb case ${name}: ${input.description}`, async (t) => {
    const dir = tempDir(t);
    const ctx = fixtureContext(t, { includeBuiltins: true, defines: input.defines });
    const crawlDb = path.join(dir, 'crawldb');
    await writeCrawlDb(ctx.storage, crawlDb, Object.fromEntries(Object.entries(input.crawldb).map(([u, f]) => [u, toDatum(f)])));
    const segments: string[] = [];
    for (const [i, seg] of input.segments.entries()) {
      const pages = seg.pages.map((p) => ({ ...p, status: p.status ? codeOf(p.status) : undefined, signature: p.signature ? hex(p.signature) : undefined }));
      segments.push(await writeSegment(ctx.storage, path.join(dir, 'segments'), `2024010${i + 1}000000`, { pages }));
    }
    const counters = await updatedb(ctx, { crawlDb, segments, ...input.args });
    const db = await readCrawlDb(ctx.storage, crawlDb);
    assert.deepEqual([...db.keys()].sort(), Object.keys(expected.crawldb).sort(), 'CrawlDb URLs');
    for (const [url, fields] of Object.entries(expected.crawldb)) {
      assert.deepEqual(view(db.get(url)!, Object.keys(fields)), fields, url);
    }
    for (const [k, v] of Object.entries(expected.counters ?? {})) assert.equal(counters[k] ?? 0, v, `counter ${k}`);
  });
}
