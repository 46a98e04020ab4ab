/**
 * The embedded StorageEngine (the default): SQLite through better-sqlite3, WAL mode, one file per
 * store partition in Nutch's directory layout. See docs/storage.md for layout, atomicity and lock.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CrawlDb, LinkDb, Segment, StagedSegment, StorageEngine } from '../interfaces.js';
import { NutchError } from '../../errors.js';
import { SqliteCrawlDb } from './sqlite-crawldb.js';
import { SqliteLinkDb } from './sqlite-linkdb.js';
import { SqliteSegment } from './sqlite-segment.js';
import { releaseSegmentName, stagingPath, uniqueSegmentName } from './segment-name.js';
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

  async openSegment(dir: string): Promise<Segment> {
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `Segment ${dir} does not exist or is not a directory.`, { file: dir });
    }
    return new SqliteSegment(dir, this.batchSize);
  }

  async createSegment(segmentsDir: string, name?: string): Promise<Segment> {
    const segName = name ?? uniqueSegmentName(segmentsDir);
    const dir = path.join(segmentsDir, segName);
    try {
      await fs.promises.mkdir(dir, { recursive: true });
    } finally {
      releaseSegmentName(segmentsDir, segName);
    }
    return new SqliteSegment(dir, this.batchSize);
  }

  /**
   * A segment written under `<segmentsDir>/.<name>.inprogress` and renamed to `<name>` by publish():
   * a crash while generating leaves no half-written segment for fetch to pick up.
   */
  async createStagedSegment(segmentsDir: string, name?: string): Promise<StagedSegment> {
    const segName = name ?? uniqueSegmentName(segmentsDir);
    const staging = stagingPath(segmentsDir, segName);
    await fs.promises.rm(staging, { recursive: true, force: true });
    await fs.promises.mkdir(staging, { recursive: true });
    const seg = new SqliteSegment(staging, this.batchSize);
    const finalDir = path.join(segmentsDir, segName);
    const batchSize = this.batchSize;
    return Object.assign(seg, {
      finalName: segName,
      async publish(): Promise<Segment> {
        await seg.close();
        try {
          if (fs.existsSync(finalDir)) throw new NutchError('NUTCH_STORAGE_EXISTS', `Segment ${finalDir} already exists; the staged segment ${staging} was kept.`, { file: finalDir });
          await fs.promises.rename(staging, finalDir);
        } finally {
          releaseSegmentName(segmentsDir, segName);
        }
        return new SqliteSegment(finalDir, batchSize);
      },
      async discard(): Promise<void> {
        await seg.close();
        await fs.promises.rm(staging, { recursive: true, force: true });
        releaseSegmentName(segmentsDir, segName);
      },
    });
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
}
