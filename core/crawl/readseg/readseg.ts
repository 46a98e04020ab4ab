/**
 * readseg, as Nutch's SegmentReader: -list (per segment: generated, fetch start/end, fetched, parsed),
 * -dump (every part's records per URL, Nutch's "Recno::" text layout) and -get (one URL's records).
 * Reads through the Segment interface only; incomplete parts are listed as such, never hidden.
 */
import { mkdirSync, createWriteStream, type WriteStream } from 'node:fs';
import { basename, join } from 'node:path';
import type { NutchContext } from '../context.js';
import type { Counters, StageOptions } from '../progress.js';
import type { PartitionStatus, Segment, SegmentPartName, SegmentPartTypes } from '../../storage/interfaces.js';
import { SEGMENT_PARTS } from '../../storage/interfaces.js';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { Content } from '../../model/content.js';
import type { ParseData, ParseText } from '../../model/parse.js';
import { datumToString, javaDate } from '../readdb/datum-format.js';

/** Which parts a dump or get shows (Nutch's -nocontent, -nofetch, -nogenerate, -noparse, -noparsedata, -noparsetext). */
export type PartSelection = Record<SegmentPartName, boolean>;

export const ALL_PARTS: PartSelection = Object.fromEntries(SEGMENT_PARTS.map((p) => [p, true])) as PartSelection;

export interface SegmentListing {
  name: string;
  generated: number;
  fetchStart: number | null;
  fetchEnd: number | null;
  fetched: number;
  parsed: number;
  incomplete: SegmentPartName[];
  /** The fetch partitions as a work queue: pending, running by whom, done, failed, attempts. */
  partitions: PartitionStatus[];
}

export async function listSegment(ctx: NutchContext, path: string): Promise<SegmentListing> {
  const seg = await ctx.storage.openSegment(path);
  try {
    const listing: SegmentListing = { name: basename(path), generated: 0, fetchStart: null, fetchEnd: null, fetched: 0, parsed: 0, incomplete: [], partitions: [] };
    if (await seg.hasPart('crawl_generate')) listing.partitions = await seg.fetchPartitions().status();
    for (const part of SEGMENT_PARTS) if ((await seg.hasPart(part)) && !(await seg.isComplete(part))) listing.incomplete.push(part);
    if (await seg.hasPart('crawl_generate')) for await (const _ of seg.read('crawl_generate')) listing.generated++;
    if (await seg.hasPart('crawl_fetch')) {
      for await (const { value } of seg.read('crawl_fetch')) {
        listing.fetched++;
        if (value.fetchTime > 0) {
          listing.fetchStart = Math.min(listing.fetchStart ?? Infinity, value.fetchTime);
          listing.fetchEnd = Math.max(listing.fetchEnd ?? 0, value.fetchTime);
        }
      }
    }
    if (await seg.hasPart('parse_data')) for await (const _ of seg.read('parse_data')) listing.parsed++;
    return listing;
  } finally {
    await seg.close();
  }
}

/** Nutch's -list table. */
export function formatListing(rows: SegmentListing[]): string[] {
  const date = (ms: number | null) => (ms === null ? '?' : javaDate(ms));
  return [
    'NAME\t\tGENERATED\tFETCHER START\t\tFETCHER END\t\tFETCHED\tPARSED',
    ...rows.flatMap((r) => [
      `${r.name}\t${r.generated}\t\t${date(r.fetchStart)}\t${date(r.fetchEnd)}\t${r.fetched}\t${r.parsed}${r.incomplete.length ? `\t(incomplete: ${r.incomplete.join(', ')})` : ''}`,
      // one line per fetch partition once the segment's fetch has started or is shared by workers
      ...(r.partitions.some((p) => p.state !== 'pending') && r.partitions.some((p) => p.state !== 'done') ? r.partitions.map(formatPartition) : []),
    ]),
  ];
}

function formatPartition(p: PartitionStatus): string {
  const lease = p.state === 'running' && p.leaseExpires !== null ? `, lease until ${new Date(p.leaseExpires).toISOString()}` : '';
  const who = p.worker ? ` by ${p.worker}` : '';
  return `  partition ${p.partition}: ${p.state}${p.state === 'pending' && p.attempts === 0 ? '' : who} (attempts ${p.attempts}${lease})${p.reason ? `: ${p.reason}` : ''}`;
}

const LABELS: Record<SegmentPartName, string> = {
  crawl_generate: 'CrawlDatum', crawl_fetch: 'CrawlDatum', crawl_parse: 'CrawlDatum',
  content: 'Content', parse_data: 'ParseData', parse_text: 'ParseText',
};

export function formatRecord(part: SegmentPartName, value: SegmentPartTypes[SegmentPartName]): string {
  switch (part) {
    case 'crawl_generate':
    case 'crawl_fetch':
    case 'crawl_parse':
      return `${LABELS[part]}::\n${datumToString(value as CrawlDatum)}`;
    case 'content': {
      const c = value as Content;
      const meta = Object.entries(c.metadata).map(([k, v]) => `${k}=${v.join(',')}`).join(' ');
      return `Content::\nVersion: -1\nurl: ${c.url}\nbase: ${c.baseUrl}\ncontentType: ${c.contentType}\nmetadata: ${meta}\nContent:\n${Buffer.from(c.content).toString('utf8')}\n`;
    }
    case 'parse_data': {
      const d = value as ParseData;
      const lines = [`ParseData::`, `Version: 5`, `Status: ${d.status.majorCode === 1 ? 'success' : d.status.majorCode === 2 ? 'failed' : 'notparsed'}(${d.status.majorCode},${d.status.minorCode})${d.status.args.length ? `, args=[${d.status.args.join(', ')}]` : ''}`, `Title: ${d.title}`, `Outlinks: ${d.outlinks.length}`];
      for (const o of d.outlinks) lines.push(`  outlink: toUrl: ${o.toUrl} anchor: ${o.anchor}`);
      lines.push(`Content Metadata: ${Object.entries(d.contentMeta).map(([k, v]) => `${k}=${v.join(',')}`).join(' ')}`);
      lines.push(`Parse Metadata: ${Object.entries(d.parseMeta).map(([k, v]) => `${k}=${v.join(',')}`).join(' ')}`);
      return lines.join('\n') + '\n';
    }
    case 'parse_text':
      return `ParseText::\n${(value as ParseText).text}\n`;
  }
}

/** The records of one URL in every selected part, as stored (what -get prints, for the SDK). */
export type SegmentRecords = { [P in SegmentPartName]?: SegmentPartTypes[P][] };

export async function readRecords(ctx: NutchContext, path: string, url: string, parts: PartSelection = ALL_PARTS): Promise<SegmentRecords> {
  const seg = await ctx.storage.openSegment(path);
  try {
    const out: Record<string, unknown[]> = {};
    for (const part of SEGMENT_PARTS) {
      if (!parts[part] || !(await seg.hasPart(part))) continue;
      const values = await seg.get(part, url);
      if (values.length) out[part] = values;
    }
    return out as SegmentRecords;
  } finally {
    await seg.close();
  }
}

/** -get: the records of one URL in every selected part, formatted as Nutch prints them. */
export async function getRecords(ctx: NutchContext, path: string, url: string, parts: PartSelection = ALL_PARTS): Promise<string[]> {
  const records = await readRecords(ctx, path, url, parts);
  return SEGMENT_PARTS.flatMap((part) => (records[part] ?? []).map((value) => formatRecord(part, value)));
}

/** -dump: `<output>/dump`, every selected part's records, part by part, each with Recno and URL. */
export async function dumpSegment(ctx: NutchContext, args: { segment: string; output: string; parts?: PartSelection }, opts: StageOptions = {}): Promise<Counters> {
  const parts = args.parts ?? ALL_PARTS;
  // The segment first: a segment that cannot be opened must not leave a half-opened output file behind.
  const seg: Segment = await ctx.storage.openSegment(args.segment);
  const counters: Counters = { records: 0 };
  let file: WriteStream | undefined;
  try {
    mkdirSync(args.output, { recursive: true });
    file = await openOutput(join(args.output, 'dump'));
    const out = file;
    const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
    let recno = 0;
    for (const part of SEGMENT_PARTS) {
      if (!parts[part] || !(await seg.hasPart(part))) continue;
      for await (const { url, value } of seg.read(part)) {
        if (opts.signal?.aborted) break;
        await write(`Recno:: ${recno++}\nURL:: ${url}\n\n${formatRecord(part, value)}\n`);
        counters.records!++;
      }
    }
  } finally {
    await seg.close();
    if (file) await new Promise<void>((resolve, reject) => file!.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
  return counters;
}

/** Resolves once the file is open, so an unwritable output is this call's error, not a later stray event. */
function openOutput(path: string): Promise<WriteStream> {
  return new Promise((resolve, reject) => {
    const file = createWriteStream(path);
    file.once('open', () => resolve(file));
    file.once('error', reject);
  });
}
