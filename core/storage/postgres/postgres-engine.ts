/**
 * The PostgreSQL StorageEngine (`storage.url=postgresql://user@host:port/db`): every store inside one
 * database, named by the paths commands are given, so workers on any machine need nothing but the
 * URL. Tables are created and migrated by the engine (pg-schema.ts); see docs/storage.md and
 * docs/scale-out.md.
 */
import path from 'node:path';
import type { CrawlDb, HostDb, LinkDb, Segment, StagedSegment, StorageEngine } from '../interfaces.js';
import { NutchError } from '../../errors.js';
import { formatSegmentName } from '../segment-names.js';
import { PgCrawlDb } from './pg-crawldb.js';
import { PgDatabase, type LockWarn } from './pg-database.js';
import { PgLinkDb } from './pg-linkdb.js';
import { openPgHostDb } from './pg-hostdb.js';
import { PgSegment, type SegmentStores } from './pg-segment.js';
import { parseStorageUrl } from './pg-target.js';
import { PgRecordTable } from './record-store.js';
import { storeName } from './store-names.js';

export interface PostgresEngineOptions {
  /** storage.url: postgresql://user:password@host:port/db[?schema=name]. */
  url: string;
  /** Relative store paths are taken from here (default the process's working directory). */
  cwd?: string;
  /** Records per scan page (storage.batch.size). */
  batchSize?: number;
  /** Connections in the pool (an update session holds one for its whole life). */
  poolSize?: number;
  warn?: LockWarn;
}

export class PostgresStorageEngine implements StorageEngine {
  readonly name = 'postgresql';
  private readonly db: PgDatabase;
  private readonly cwd: string;
  private readonly stores: SegmentStores;

  constructor(opts: PostgresEngineOptions) {
    this.db = new PgDatabase(parseStorageUrl(opts.url), Math.max(1, opts.batchSize ?? 1000), opts.warn, Math.max(2, opts.poolSize ?? 8));
    this.cwd = opts.cwd ?? process.cwd();
    this.stores = {
      db: this.db,
      datums: new PgRecordTable(this.db.pool, 'nutch_segment_records'),
      content: new PgRecordTable(this.db.pool, 'nutch_segment_content'),
    };
  }

  /** The redacted URL, for messages. */
  get url(): string {
    return this.db.target.redacted;
  }

  private storeName(p: string): string {
    return storeName(p, this.cwd);
  }

  async openCrawlDb(p: string): Promise<CrawlDb> {
    await this.db.ready(); // an unreachable database or a newer schema is reported when the store is opened
    return new PgCrawlDb(this.db, p, this.storeName(p));
  }

  async openLinkDb(p: string): Promise<LinkDb> {
    await this.db.ready();
    return new PgLinkDb(this.db, p, this.storeName(p));
  }

  async openHostDb(p: string): Promise<HostDb> {
    await this.db.ready();
    return openPgHostDb(this.db, p, this.storeName(p));
  }

  async openSegment(p: string): Promise<Segment> {
    const dir = this.storeName(path.dirname(path.resolve(this.cwd, p)));
    const segName = path.basename(path.resolve(this.cwd, p));
    const r = await this.db.query<{ id: number }>(p, 'SELECT id FROM nutch_segments WHERE dir = $1 AND name = $2 AND NOT staged', [dir, segName]);
    if (r.rows.length === 0) {
      throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `Segment ${p} does not exist in ${this.url}.`, { file: p, storageUrl: this.url });
    }
    return new PgSegment(this.stores, r.rows[0]!.id, segName, p);
  }

  /**
   * Claims a segment row: the unique (dir, name) constraint makes the name atomic across machines;
   * a taken name moves one second forward, as Nutch's Generator waits a second between segments.
   */
  private async claim(segmentsDir: string, name: string | undefined, staged: boolean): Promise<{ id: number; name: string } | null> {
    const dir = this.storeName(segmentsDir);
    for (let t = Date.now(); ; t += 1000) {
      const candidate = name ?? formatSegmentName(t);
      const r = await this.db.query<{ id: number }>(segmentsDir,
        'INSERT INTO nutch_segments (dir, name, staged) VALUES ($1, $2, $3) ON CONFLICT (dir, name) DO NOTHING RETURNING id', [dir, candidate, staged]);
      if (r.rows.length > 0) return { id: r.rows[0]!.id, name: candidate };
      if (name !== undefined) return null;
    }
  }

  async createSegment(segmentsDir: string, name?: string): Promise<Segment> {
    const got = await this.claim(segmentsDir, name, false);
    // an explicit name that exists is the caller's to keep (the embedded engine reopens its directory)
    if (!got) return this.openSegment(path.join(segmentsDir, name!));
    return new PgSegment(this.stores, got.id, got.name, path.join(segmentsDir, got.name));
  }

  async createStagedSegment(segmentsDir: string, name?: string): Promise<StagedSegment> {
    if (name !== undefined) await this.dropStaged(segmentsDir, [name]);
    const got = await this.claim(segmentsDir, name, true);
    if (!got) {
      throw new NutchError('NUTCH_STORAGE_EXISTS', `Segment ${path.join(segmentsDir, name!)} already exists in ${this.url}.`, { file: path.join(segmentsDir, name!) });
    }
    return new PgStagedSegment(this.stores, got.id, got.name, segmentsDir);
  }

  private async dropStaged(segmentsDir: string, names?: string[]): Promise<string[]> {
    const dir = this.storeName(segmentsDir);
    const r = names
      ? await this.db.query<{ id: number; name: string }>(segmentsDir, 'SELECT id, name FROM nutch_segments WHERE dir = $1 AND staged AND name = ANY($2::text[]) ORDER BY name', [dir, names])
      : await this.db.query<{ id: number; name: string }>(segmentsDir, 'SELECT id, name FROM nutch_segments WHERE dir = $1 AND staged ORDER BY name', [dir]);
    for (const row of r.rows) await deleteSegment(this.stores, row.id, segmentsDir);
    return r.rows.map((row) => row.name);
  }

  discardStaleStagedSegments(segmentsDir: string): Promise<string[]> {
    return this.dropStaged(segmentsDir);
  }

  async listSegments(segmentsDir: string): Promise<string[]> {
    const r = await this.db.query<{ name: string }>(segmentsDir, 'SELECT name FROM nutch_segments WHERE dir = $1 AND NOT staged ORDER BY name COLLATE "C"', [this.storeName(segmentsDir)]);
    return r.rows.map((row) => path.join(segmentsDir, row.name));
  }

  async close(): Promise<void> {
    await this.db.end();
  }
}

/** Removes a segment with all its records, partitions and claims, in one transaction. */
async function deleteSegment(stores: SegmentStores, id: number, where: string): Promise<void> {
  await stores.db.transaction(where, async (c) => {
    await stores.datums.dropSegment(c, id);
    await stores.content.dropSegment(c, id);
    await c.query('DELETE FROM nutch_segment_partitions WHERE segment = $1', [id]);
    await c.query('DELETE FROM nutch_fetch_partitions WHERE segment = $1', [id]);
    await c.query('DELETE FROM nutch_segments WHERE id = $1', [id]);
  });
}

/**
 * A segment row marked staged: written under its final name (the unique constraint already holds
 * it) but invisible to listSegments() and openSegment() until publish() clears the flag.
 */
class PgStagedSegment extends PgSegment implements StagedSegment {
  readonly finalName: string;

  constructor(stores: SegmentStores, id: number, name: string, private readonly segmentsDir: string) {
    super(stores, id, name, path.join(segmentsDir, `.${name}.inprogress`));
    this.finalName = name;
  }

  async publish(): Promise<Segment> {
    await this.close();
    await this.stores.db.query(this.path, 'UPDATE nutch_segments SET staged = false WHERE id = $1', [this.id]);
    return new PgSegment(this.stores, this.id, this.finalName, path.join(this.segmentsDir, this.finalName));
  }

  async discard(): Promise<void> {
    await this.close();
    await deleteSegment(this.stores, this.id, this.path);
  }
}
