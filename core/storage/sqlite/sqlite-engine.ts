/**
 * The embedded StorageEngine (the default): SQLite through better-sqlite3, WAL mode, one file per
 * store partition in Nutch's directory layout. See docs/storage.md for layout, atomicity and lock.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CrawlDb, HostDb, LinkDb, Segment, StagedSegment, StorageEngine } from '../interfaces.js';
import { NutchError } from '../../errors.js';
import { SqliteCrawlDb } from './sqlite-crawldb.js';
import { SqliteLinkDb } from './sqlite-linkdb.js';
import { openSqliteHostDb } from './sqlite-hostdb.js';
import { SqliteSegment } from './sqlite-segment.js';
import { claimSegmentDir, stagedSegmentNames, stagingPath } from './segment-name.js';
import type { LockWarn } from './writer-lock.js';

export interface SqliteEngineOptions {
  /** Records per scan page (storage.batch.size). */
  batchSize?: number;
  /** Receives lock warnings (a stale lock broken, a lock forced). */
  warn?: LockWarn;
}

export class SqliteStorageEngine implements StorageEngine {
  readonly name = 'sqlite';
  private readonly batchSize: number;
  private readonly warn?: LockWarn;

  constructor(opts: SqliteEngineOptions = {}) {
    this.batchSize = Math.max(1, opts.batchSize ?? 1000);
    this.warn = opts.warn;
  }

  async openCrawlDb(dir: string): Promise<CrawlDb> {
    return new SqliteCrawlDb(dir, { batchSize: this.batchSize, warn: this.warn });
  }

  async openLinkDb(dir: string): Promise<LinkDb> {
    return new SqliteLinkDb(dir, { batchSize: this.batchSize, warn: this.warn });
  }

  async openHostDb(dir: string): Promise<HostDb> {
    return openSqliteHostDb(dir, { batchSize: this.batchSize, warn: this.warn });
  }

  async openSegment(dir: string): Promise<Segment> {
    const st = fs.statSync(dir, { throwIfNoEntry: false });
    if (st && !st.isDirectory()) {
      // A file where a segment was named (a copy gone wrong, a dump written over it): say so, not "missing".
      throw new NutchError('NUTCH_STORAGE_NOT_A_DIRECTORY',
        `Segment ${dir} is a file, but a segment directory (holding crawl_generate, crawl_fetch, content, …) was expected. Give the segment's directory, or move the file away.`,
        { file: dir });
    }
    if (!st) throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `Segment ${dir} does not exist.`, { file: dir });
    return new SqliteSegment(dir, this.batchSize);
  }

  async createSegment(segmentsDir: string, name?: string): Promise<Segment> {
    const segName = claimSegmentDir(segmentsDir, { name, staged: false });
    return new SqliteSegment(path.join(segmentsDir, segName), this.batchSize);
  }

  /**
   * A segment written under `<segmentsDir>/.<name>.inprogress` and renamed to `<name>` by publish():
   * a crash while generating leaves no half-written segment for fetch to pick up.
   */
  async createStagedSegment(segmentsDir: string, name?: string): Promise<StagedSegment> {
    if (name !== undefined) await fs.promises.rm(stagingPath(segmentsDir, name), { recursive: true, force: true });
    const segName = claimSegmentDir(segmentsDir, { name, staged: true });
    const staging = stagingPath(segmentsDir, segName);
    await fs.promises.mkdir(staging, { recursive: true });
    const seg = new SqliteSegment(staging, this.batchSize);
    const finalDir = path.join(segmentsDir, segName);
    const batchSize = this.batchSize;
    return Object.assign(seg, {
      finalName: segName,
      async publish(): Promise<Segment> {
        await seg.close();
        if (fs.existsSync(finalDir)) throw new NutchError('NUTCH_STORAGE_EXISTS', `Segment ${finalDir} already exists; the staged segment ${staging} was kept.`, { file: finalDir });
        await fs.promises.rename(staging, finalDir);
        return new SqliteSegment(finalDir, batchSize);
      },
      async discard(): Promise<void> {
        await seg.close();
        await fs.promises.rm(staging, { recursive: true, force: true });
      },
    });
  }

  async discardStaleStagedSegments(segmentsDir: string): Promise<string[]> {
    const names = stagedSegmentNames(segmentsDir);
    for (const n of names) await fs.promises.rm(stagingPath(segmentsDir, n), { recursive: true, force: true });
    return names;
  }

  async listSegments(segmentsDir: string): Promise<string[]> {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(segmentsDir, { withFileTypes: true });
    } catch {
      return [];
    }
    return entries
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort()
      .map((n) => path.join(segmentsDir, n));
  }

  /** Stores hold their own handles and are closed by their users; the engine itself holds nothing. */
  async close(): Promise<void> {}
}
