/**
 * The embedded engine's fetch-partition queue: a small SQLite table in `<segment>/.fetch-partitions`
 * shared by the fetch processes of one machine (the embedded engine's reach). A claim is a row update
 * under SQLite's write lock. The fencing token lives with the data: a fenced writer records its
 * attempt in the partition file itself and every append checks it in its own transaction
 * (segment-part-file.ts), so a superseded worker can never commit a batch, and a frozen one never
 * holds a lock that other partitions wait for. Times are this machine's clock, the only clock its
 * workers share.
 */
import fs from 'node:fs';
import path from 'node:path';
import { claimCount, exhaustedReason, leaseLost, workerGone, type PartitionRow } from '../partition-claim.js';
import type { FetchPartitions, PartitionClaim, PartitionStatus } from '../interfaces.js';
export { leaseLost, workerId } from '../partition-claim.js';
import { guard, openDatabase, type SqliteDatabase } from './open-database.js';

export const FETCH_PARTITIONS_FILE = '.fetch-partitions';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS partitions (
  partition INTEGER PRIMARY KEY NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending',
  worker TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  released INTEGER NOT NULL DEFAULT 0,
  lease_expires INTEGER,
  reason TEXT
);`;

/** A queue file written before polite releases were counted apart gets the column (it starts at 0). */
function addReleasedColumn(db: SqliteDatabase): void {
  const cols = db.prepare('PRAGMA table_info(partitions)').all() as { name: string }[];
  if (!cols.some((c) => c.name === 'released')) db.exec('ALTER TABLE partitions ADD COLUMN released INTEGER NOT NULL DEFAULT 0');
}

interface Row extends PartitionRow {
  lease_expires: number | null;
}

function toStatus(r: Row): PartitionStatus {
  return { partition: r.partition, state: r.state, worker: r.worker, attempts: r.attempts, leaseExpires: r.lease_expires, ...(r.reason ? { reason: r.reason } : {}) };
}

export class SqliteFetchPartitions implements FetchPartitions {
  private db: SqliteDatabase | null = null;

  constructor(
    private readonly segmentDir: string,
    /** The segment's partition count and which partitions' crawl_fetch is already finished. */
    private readonly layout: () => Promise<{ count: number; finished: number[] }>,
  ) {}

  get file(): string {
    return path.join(this.segmentDir, FETCH_PARTITIONS_FILE);
  }

  private async open(): Promise<SqliteDatabase> {
    if (this.db) return this.db;
    const { count, finished } = await this.layout();
    const db = openDatabase(this.file, { create: true, schema: SCHEMA, cacheKiB: 500 });
    guard(this.file, () => db.transaction(() => {
      addReleasedColumn(db);
      const add = db.prepare("INSERT OR IGNORE INTO partitions (partition, state) VALUES (?, 'pending')");
      for (let p = 0; p < count; p++) add.run(p);
      // a segment fetched before claims existed, or partitions finished by a plain fetch
      const done = db.prepare("UPDATE partitions SET state = 'done' WHERE partition = ? AND state <> 'done'");
      for (const p of finished) done.run(p);
    }).immediate());
    this.db = db;
    return db;
  }

  async claim(worker: string, opts: { leaseMs: number; maxAttempts: number; held?: readonly number[] }): Promise<{ claim: PartitionClaim | null; failed: PartitionStatus[] }> {
    const db = await this.open();
    const failed: PartitionStatus[] = [];
    const held = new Set(opts.held ?? []);
    const claim = guard(this.file, () => db.transaction((): PartitionClaim | null => {
      const now = Date.now();
      // a running partition is claimable once its lease expired, or at once when its worker's process is gone from this host
      const rows = (db.prepare("SELECT * FROM partitions WHERE state IN ('pending', 'running') ORDER BY partition").all() as Row[])
        .filter((r) => r.state === 'pending' || (r.lease_expires !== null && r.lease_expires <= now) || workerGone(r.worker));
      for (const r of rows) {
        if (held.has(r.partition)) continue;
        const { released, exhausted } = claimCount(r, worker, opts.maxAttempts);
        if (exhausted) {
          const reason = exhaustedReason(r, opts.maxAttempts);
          db.prepare("UPDATE partitions SET state = 'failed', reason = ?, lease_expires = NULL WHERE partition = ?").run(reason, r.partition);
          failed.push(toStatus({ ...r, state: 'failed', reason, lease_expires: null }));
          continue;
        }
        const attempt = r.attempts + 1;
        db.prepare("UPDATE partitions SET state = 'running', worker = ?, attempts = ?, released = ?, lease_expires = ? WHERE partition = ?").run(worker, attempt, released, now + opts.leaseMs, r.partition);
        return { partition: r.partition, attempt, worker };
      }
      return null;
    }).immediate());
    return { claim, failed };
  }

  private update(claim: PartitionClaim, sql: string, ...params: unknown[]): void {
    const db = this.db;
    if (!db) throw leaseLost(claim, this.segmentDir);
    const changed = guard(this.file, () => db.prepare(sql).run(...params, claim.partition, claim.attempt).changes);
    if (changed === 0) throw leaseLost(claim, this.segmentDir);
  }

  async renew(claim: PartitionClaim, leaseMs: number): Promise<void> {
    await this.open();
    this.update(claim, "UPDATE partitions SET lease_expires = ? WHERE partition = ? AND attempts = ? AND state = 'running'", Date.now() + leaseMs);
  }

  async complete(claim: PartitionClaim): Promise<void> {
    await this.open();
    this.update(claim, "UPDATE partitions SET state = 'done', lease_expires = NULL WHERE partition = ? AND attempts = ? AND state = 'running'");
  }

  async release(claim: PartitionClaim): Promise<void> {
    await this.open();
    // attempts is not given back: the next claim gets a new token, so this worker's late writes stay refused
    this.update(claim, "UPDATE partitions SET state = 'pending', released = released + 1, lease_expires = NULL WHERE partition = ? AND attempts = ? AND state = 'running'");
  }

  /**
   * Whether the claim is still the partition's current one (a read, no lock). The fence stored in each
   * partition file is what makes a late write impossible once the new holder's writers are open; this
   * refuses it from the moment of the takeover claim.
   */
  isCurrent(claim: PartitionClaim): boolean {
    this.db ??= openDatabase(this.file, { schema: SCHEMA, cacheKiB: 500 });
    const db = this.db;
    const row = guard(this.file, () => db.prepare("SELECT 1 FROM partitions WHERE partition = ? AND attempts = ? AND state = 'running'").get(claim.partition, claim.attempt));
    return row !== undefined;
  }

  async status(): Promise<PartitionStatus[]> {
    if (!this.db && !fs.existsSync(this.file)) {
      // never claimed: answered without creating the file (readseg -list is a reader)
      const { count, finished } = await this.layout();
      return Array.from({ length: count }, (_, p) => ({ partition: p, state: finished.includes(p) ? 'done' : 'pending', worker: null, attempts: 0, leaseExpires: null }));
    }
    const db = await this.open();
    return (guard(this.file, () => db.prepare('SELECT * FROM partitions ORDER BY partition').all()) as Row[]).map(toStatus);
  }

  async allSettled(): Promise<boolean> {
    const db = await this.open();
    const row = guard(this.file, () => db.prepare("SELECT count(*) AS n FROM partitions WHERE state NOT IN ('done', 'failed')").get()) as { n: number };
    return row.n === 0;
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }
}
