/**
 * The fetch partitions of a segment as a work queue shared by processes on any number of machines:
 * rows of nutch_fetch_partitions. A claim takes the first claimable row with `FOR UPDATE SKIP
 * LOCKED` (two workers never wait on or take the same row) and the lease is `now() + lease` on the
 * database's clock, the one clock every worker shares. `attempts` is the fencing token: a fenced
 * segment writer re-reads its claim's row `FOR SHARE` in the transaction that stores its batch
 * (fenceCheck), so once another worker took the partition over, the late worker's writes are refused.
 */
import type pg from 'pg';
import type { FetchPartitions, PartitionClaim, PartitionStatus } from '../interfaces.js';
import { claimCount, exhaustedReason, leaseLost, workerGone, type PartitionRow } from '../partition-claim.js';
import type { PgDatabase } from './pg-database.js';

interface Row extends PartitionRow {
  lease_ms: number | null;
}

const COLUMNS = 'partition, state, worker, attempts, released, extract(epoch FROM lease_expires) * 1000 AS lease_ms, reason';

function toStatus(r: Row): PartitionStatus {
  return { partition: r.partition, state: r.state, worker: r.worker, attempts: r.attempts, leaseExpires: r.lease_ms === null ? null : Math.round(Number(r.lease_ms)), ...(r.reason ? { reason: r.reason } : {}) };
}

/**
 * How long a claim's or fenced write's transaction may stand idle: its lease, but never under a second,
 * so a short lease (tests use 1 ms ones) does not end transactions that are merely between round trips.
 */
export function idleLimitMs(leaseMs: number): number {
  return Math.max(1000, leaseMs);
}

/** Throws NUTCH_LEASE_LOST unless `claim` is still the partition's current one; call inside the writing transaction. */
export async function fenceCheck(client: pg.PoolClient, segment: number, claim: PartitionClaim, where: string): Promise<void> {
  const r = await client.query(
    "SELECT 1 FROM nutch_fetch_partitions WHERE segment = $1 AND partition = $2 AND attempts = $3 AND state = 'running' FOR SHARE",
    [segment, claim.partition, claim.attempt]);
  if (r.rowCount === 0) throw leaseLost(claim, where);
}

export class PgFetchPartitions implements FetchPartitions {
  private initialised = false;

  constructor(private readonly db: PgDatabase, private readonly segment: number, private readonly where: string) {}

  /** Rows for partitions 0..count-1; partitions whose crawl_fetch a plain fetch already finished are done. */
  private async init(): Promise<void> {
    if (this.initialised) return;
    await this.db.transaction(this.where, async (c) => {
      await c.query(
        `INSERT INTO nutch_fetch_partitions (segment, partition)
         SELECT $1, g FROM nutch_segments s, generate_series(0, s.partition_count - 1) g WHERE s.id = $1
         ON CONFLICT DO NOTHING`, [this.segment]);
      await c.query(
        `UPDATE nutch_fetch_partitions f SET state = 'done', lease_expires = NULL
           FROM nutch_segment_partitions p
          WHERE f.segment = $1 AND p.segment = $1 AND p.part = 'crawl_fetch' AND p.finished AND p.partition = f.partition AND f.state <> 'done'`,
        [this.segment]);
    });
    this.initialised = true;
  }

  async claim(worker: string, opts: { leaseMs: number; maxAttempts: number; held?: readonly number[] }): Promise<{ claim: PartitionClaim | null; failed: PartitionStatus[] }> {
    await this.init();
    const failed: PartitionStatus[] = [];
    // the SELECT locks every claimable row: a worker frozen inside this transaction must not keep them
    // from the others longer than a lease; its claim then fails here and is asked again at the next poll
    const idledOut = Symbol('idled out');
    // workers whose process is gone from this host: their partitions are claimable before the lease ends
    const holders = await this.db.query<{ worker: string }>(this.where,
      "SELECT DISTINCT worker FROM nutch_fetch_partitions WHERE segment = $1 AND state = 'running' AND lease_expires > now()", [this.segment]);
    const gone = holders.rows.map((r) => r.worker).filter(workerGone);
    const claim = await this.db.transaction(this.where, async (c): Promise<PartitionClaim | null> => {
      const rows = (await c.query<Row>(
        `SELECT ${COLUMNS} FROM nutch_fetch_partitions
          WHERE segment = $1 AND (state = 'pending' OR (state = 'running' AND (lease_expires <= now() OR worker = ANY($3::text[])))) AND partition <> ALL($2::int[])
          ORDER BY partition FOR UPDATE SKIP LOCKED`, [this.segment, opts.held ?? [], gone])).rows;
      for (const r of rows) {
        const { released, exhausted } = claimCount(r, worker, opts.maxAttempts);
        if (exhausted) {
          const reason = exhaustedReason(r, opts.maxAttempts);
          await c.query("UPDATE nutch_fetch_partitions SET state = 'failed', reason = $3, lease_expires = NULL WHERE segment = $1 AND partition = $2", [this.segment, r.partition, reason]);
          failed.push(toStatus({ ...r, state: 'failed', reason, lease_ms: null }));
          continue;
        }
        const attempt = r.attempts + 1;
        await c.query(
          "UPDATE nutch_fetch_partitions SET state = 'running', worker = $3, attempts = $4, released = $6, lease_expires = now() + $5 * interval '1 millisecond' WHERE segment = $1 AND partition = $2",
          [this.segment, r.partition, worker, attempt, opts.leaseMs, released]);
        return { partition: r.partition, attempt, worker, leaseMs: opts.leaseMs };
      }
      return null;
    }, { idleTimeoutMs: idleLimitMs(opts.leaseMs), onIdleTimeout: () => idledOut }).catch((err) => {
      if (err === idledOut) {
        failed.length = 0; // rolled back: nothing was marked failed
        return null;
      }
      throw err;
    });
    return { claim, failed };
  }

  private async update(claim: PartitionClaim, set: string, params: unknown[] = []): Promise<void> {
    await this.init();
    const r = await this.db.query(this.where,
      `UPDATE nutch_fetch_partitions SET ${set} WHERE segment = $1 AND partition = $2 AND attempts = $3 AND state = 'running'`,
      [this.segment, claim.partition, claim.attempt, ...params]);
    if (r.rowCount === 0) throw leaseLost(claim, this.where);
  }

  renew(claim: PartitionClaim, leaseMs: number): Promise<void> {
    return this.update(claim, "lease_expires = now() + $4 * interval '1 millisecond'", [leaseMs]);
  }

  complete(claim: PartitionClaim): Promise<void> {
    return this.update(claim, "state = 'done', lease_expires = NULL");
  }

  release(claim: PartitionClaim): Promise<void> {
    // attempts is not given back: the next claim gets a new token, so this worker's late writes stay refused
    return this.update(claim, "state = 'pending', released = released + 1, lease_expires = NULL");
  }

  async status(): Promise<PartitionStatus[]> {
    await this.init();
    const r = await this.db.query<Row>(this.where, `SELECT ${COLUMNS} FROM nutch_fetch_partitions WHERE segment = $1 ORDER BY partition`, [this.segment]);
    return r.rows.map(toStatus);
  }

  async allSettled(): Promise<boolean> {
    await this.init();
    const r = await this.db.query<{ n: string }>(this.where, "SELECT count(*) AS n FROM nutch_fetch_partitions WHERE segment = $1 AND state NOT IN ('done', 'failed')", [this.segment]);
    return Number(r.rows[0]!.n) === 0;
  }
}
