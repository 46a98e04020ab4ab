/**
 * An embedded segment: `<segments>/<yyyyMMddHHmmss>/<part>/part-0000N` (one SQLite file per
 * partition) plus `<part>/_SUCCESS` once every partition of the part is finished, as Hadoop's
 * output committer writes it. The partition count comes from the writer's totalPartitions, else
 * from crawl_generate's partitions (fetch and parse output follow the fetch lists), else 1.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FetchPartitions, Keyed, PartitionClaim, Segment, SegmentPartName, SegmentPartTypes, SegmentPartWriter } from '../interfaces.js';
import { SqliteFetchPartitions } from './sqlite-fetch-partitions.js';
import { NutchError } from '../../errors.js';
import { SegmentPartFile, parsePartitionFileName, partitionFileName } from './segment-part-file.js';
import { decodeValue, encodeDatum, encodeValue } from '../value-codec.js';
import { diskError, isDiskError } from './disk-error.js';
import { ExternalSort } from '../external-sort.js';
import { yieldToEventLoop } from '../yield.js';

/** Sorted records handed out between two turns of the event loop. */
const SORTED_ROWS_PER_TURN = 2048;

export const SUCCESS_FILE = '_SUCCESS';
/** The segment's own metadata (Segment.readMeta), beside its parts; `_` keeps it out of part listings, as `_SUCCESS`. */
export const META_FILE = '_metadata.json';

/** The parts whose values are CrawlDatums, stored in the compact datum layout. */
const DATUM_PARTS = new Set<SegmentPartName>(['crawl_generate', 'crawl_fetch', 'crawl_parse']);

export class SqliteSegment implements Segment {
  readonly name: string;
  private readonly open = new Map<string, SegmentPartFile>();
  private claims: SqliteFetchPartitions | null = null;
  /**
   * Partitions of the complete parts (`_SUCCESS` written) that get() looked up: an index stage looks
   * up every page without a parse in parse_data and parse_text, and a directory listing per lookup
   * cost more than the lookup. A complete part changes only by dropPart (-force) or a new writer,
   * which forget its entry.
   */
  private readonly completePartitions = new Map<SegmentPartName, number[]>();

  constructor(readonly path: string, private readonly batchSize: number) {
    this.name = path.split(/[\\/]/).filter(Boolean).pop() ?? path;
  }

  private partDir(part: SegmentPartName): string {
    return path.join(this.path, part);
  }

  private fileOf(part: SegmentPartName, partition: number): string {
    return path.join(this.partDir(part), partitionFileName(partition));
  }

  private reader(file: string): SegmentPartFile {
    let f = this.open.get(file);
    if (!f) {
      f = new SegmentPartFile(file, false);
      this.open.set(file, f);
    }
    return f;
  }

  async partitions(part: SegmentPartName): Promise<number[]> {
    let names: string[];
    try {
      names = await fs.promises.readdir(this.partDir(part));
    } catch {
      return [];
    }
    return names.map(parsePartitionFileName).filter((n): n is number => n !== null).sort((a, b) => a - b);
  }

  async partitionCount(): Promise<number> {
    const first = (await this.partitions('crawl_generate'))[0];
    if (first === undefined) return 0;
    const stored = Number(this.reader(this.fileOf('crawl_generate', first)).getMeta('totalPartitions') ?? 0);
    return stored > 0 ? stored : (await this.partitions('crawl_generate')).length;
  }

  async dropPart(part: SegmentPartName): Promise<void> {
    this.completePartitions.delete(part);
    const dir = this.partDir(part);
    for (const [file, f] of this.open) {
      if (path.dirname(file) !== dir) continue;
      f.close();
      this.open.delete(file);
    }
    await fs.promises.rm(dir, { recursive: true, force: true });
  }

  async isComplete(part: SegmentPartName): Promise<boolean> {
    return fs.existsSync(path.join(this.partDir(part), SUCCESS_FILE));
  }

  async hasPart(part: SegmentPartName): Promise<boolean> {
    return fs.existsSync(this.partDir(part));
  }

  fetchPartitions(): FetchPartitions {
    this.claims ??= new SqliteFetchPartitions(this.path, async () => {
      const count = await this.partitionCount();
      const finished: number[] = [];
      for (const p of await this.partitions('crawl_fetch')) {
        if (this.reader(this.fileOf('crawl_fetch', p)).getMeta('finished') === '1') finished.push(p);
      }
      return { count, finished };
    });
    return this.claims;
  }

  async openWriter<P extends SegmentPartName>(part: P, partition: number, opts: { totalPartitions?: number; fence?: PartitionClaim } = {}): Promise<SegmentPartWriter<SegmentPartTypes[P]>> {
    if (!Number.isInteger(partition) || partition < 0) {
      throw new NutchError('NUTCH_USAGE', `Partition number must be a non-negative integer, got ${partition} for ${part} of ${this.path}.`);
    }
    const file = this.fileOf(part, partition);
    this.completePartitions.delete(part);
    this.open.get(file)?.close();
    this.open.delete(file);
    const pf = new SegmentPartFile(file, true, DATUM_PARTS.has(part) ? encodeDatum : encodeValue);
    const total = opts.totalPartitions ?? (Number(pf.getMeta('totalPartitions') ?? 0) || (await this.defaultTotal(part)));
    pf.setMeta('totalPartitions', String(total));
    if (opts.fence) {
      const claim = opts.fence;
      const queue = this.fetchPartitions() as SqliteFetchPartitions;
      pf.setFence(claim, this.path, () => queue.isCurrent(claim));
    }
    return {
      append: (records: readonly Keyed<SegmentPartTypes[P]>[]) => pf.append(records),
      finish: async () => {
        pf.finish();
        await this.markIfComplete(part, total, partition);
      },
      close: async () => pf.close(),
    };
  }

  private async defaultTotal(part: SegmentPartName): Promise<number> {
    if (part === 'crawl_generate') return 1;
    return Math.max(1, await this.partitionCount());
  }

  /** Writes `_SUCCESS` when partitions 0..total-1 are all finished. */
  private async markIfComplete(part: SegmentPartName, total: number, justFinished: number): Promise<void> {
    for (let p = 0; p < total; p++) {
      if (p === justFinished) continue;
      const file = this.fileOf(part, p);
      if (!SegmentPartFile.exists(file)) return;
      if (this.reader(file).getMeta('finished') !== '1') return;
    }
    const marker = path.join(this.partDir(part), SUCCESS_FILE);
    await fs.promises.writeFile(marker, '').catch((err: unknown) => {
      throw isDiskError(err) ? diskError(marker, err) : err;
    });
  }

  async *read<P extends SegmentPartName>(part: P, opts: { partition?: number; batchSize?: number } = {}): AsyncGenerator<Keyed<SegmentPartTypes[P]>> {
    const parts = opts.partition !== undefined ? [opts.partition] : await this.partitions(part);
    for (const p of parts) {
      const file = this.fileOf(part, p);
      if (!SegmentPartFile.exists(file)) continue;
      yield* this.reader(file).read<SegmentPartTypes[P]>(opts.batchSize ?? this.batchSize);
    }
  }

  /** An external sort of the part's stored values by URL (stable: ties in read() order), decoded as they come out. */
  async *readSorted<P extends SegmentPartName>(part: P): AsyncGenerator<Keyed<SegmentPartTypes[P]>> {
    // every run spilled at once: a row holds its own Buffer (one allocation each), which must not live long enough to be promoted
    const sort = new ExternalSort({ columns: 1, memoryRows: 0 });
    try {
      for (const p of await this.partitions(part)) {
        const file = this.fileOf(part, p);
        if (!SegmentPartFile.exists(file)) continue;
        for await (const r of this.reader(file).readEncoded(this.batchSize)) sort.add([r.url, r.value]);
      }
      let n = 0;
      for (const row of sort.sorted()) {
        yield { url: row[0], value: decodeValue<SegmentPartTypes[P]>(row[1] as Buffer) };
        if (++n % SORTED_ROWS_PER_TURN === 0) await yieldToEventLoop();
      }
    } finally {
      sort.close();
    }
  }

  async storedAmong(part: SegmentPartName, partition: number, urls: readonly string[]): Promise<Set<string>> {
    const file = this.fileOf(part, partition);
    if (!SegmentPartFile.exists(file)) return new Set();
    return this.reader(file).storedAmong(urls);
  }

  async count(part: SegmentPartName, partition?: number): Promise<number> {
    let n = 0;
    for (const p of partition !== undefined ? [partition] : await this.partitions(part)) {
      const file = this.fileOf(part, p);
      if (SegmentPartFile.exists(file)) n += this.reader(file).count();
    }
    return n;
  }

  async get<P extends SegmentPartName>(part: P, url: string): Promise<SegmentPartTypes[P][]> {
    const out: SegmentPartTypes[P][] = [];
    let partitions = this.completePartitions.get(part);
    if (!partitions) {
      const complete = await this.isComplete(part);
      partitions = await this.partitions(part);
      if (complete) this.completePartitions.set(part, partitions);
    }
    for (const p of partitions) out.push(...this.reader(this.fileOf(part, p)).get<SegmentPartTypes[P]>(url));
    return out;
  }

  async readMeta(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await fs.promises.readFile(path.join(this.path, META_FILE), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw err;
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
      }
    } catch {
      // not JSON: reported below like any other shape
    }
    throw new NutchError('NUTCH_STORAGE_CORRUPT', `Segment metadata ${path.join(this.path, META_FILE)} is not a JSON object of strings. Remove the file (the segment's records are unaffected) and run again.`, { file: path.join(this.path, META_FILE) });
  }

  /** Written to a temporary file, flushed, then renamed over the old one: a crash leaves the old or the new file. */
  async writeMeta(entries: Record<string, string>): Promise<void> {
    const file = path.join(this.path, META_FILE);
    const next = { ...(await this.readMeta()), ...entries };
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      const fh = await fs.promises.open(tmp, 'w');
      try {
        await fh.writeFile(JSON.stringify(next) + '\n');
        await fh.sync();
      } finally {
        await fh.close();
      }
      await fs.promises.rename(tmp, file);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw isDiskError(err) ? diskError(file, err) : err;
    }
  }

  async close(): Promise<void> {
    for (const f of this.open.values()) f.close();
    this.open.clear();
    this.claims?.close();
    this.claims = null;
  }
}
