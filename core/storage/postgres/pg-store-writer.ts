/**
 * Writes an update session's rows into a keyed store while the session is still producing them:
 * rows come in URL order, one per URL, and go out through a COPY that is open while they come, so
 * the server stores them while the process works on the next ones (the two share the machine's
 * cores instead of taking turns):
 *   - into a store without rows, straight into the table (COPY's batched heap inserts, the index
 *     filled in key order);
 *   - else into the session's staging table (temporary, unindexed), merged into the store every
 *     MERGE_ROWS rows with `INSERT … SELECT … ON CONFLICT DO UPDATE` (INSERT OR REPLACE semantics),
 *     read back in the order it was written (key order), so the index is filled without a sort.
 * The statements run one after another on the session's connection (a chain of their own: the
 * process does not wait for a merge before it encodes the next rows, up to QUEUED_BYTES ahead).
 * A failure of any of them is reported by the next add() or finish().
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { CopyEncoder, type CopyType, type CopyValue } from './pg-copy.js';
import type { SortRow } from '../external-sort.js';

/** Rows staged between two merges into the store. */
const MERGE_ROWS = 65_536;
/** Encoded bytes the process may queue ahead of the server. */
const QUEUED_BYTES = 8 << 20;

export interface StoreWriteTarget {
  table: string;
  staging: string;
  /** Value columns (after store and url). */
  columns: readonly string[];
  types: readonly CopyType[];
  /** The staging table's definition (columns after url), created at its first use. */
  stagingColumns: string;
}

export class StoreWriter {
  /** The open COPY's input: encoded chunks wait here until the server takes them. */
  private input: PassThrough | null = null;
  private encoder: CopyEncoder | null = null;
  private staged = 0;
  /** The connection's statements, in order. */
  private tail: Promise<unknown> = Promise.resolve();
  private failure: unknown = null;
  private readonly failed: Promise<never>;
  private fail!: (err: unknown) => void;
  /** Rows written. */
  rows = 0;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly store: number,
    private readonly target: StoreWriteTarget,
    /** True while the store has no row: the COPY goes straight into the table. */
    private readonly direct: boolean,
    private readonly stagingState: { created: boolean },
  ) {
    this.failed = new Promise<never>((_, reject) => { this.fail = reject; });
    this.failed.catch(() => {});
  }

  /** Runs a statement after the ones before it (skipped once one failed). */
  private queue(fn: () => Promise<unknown>): void {
    const p = this.tail.then(() => {
      if (this.failure) throw this.failure;
      return fn();
    });
    this.tail = p.catch((err) => {
      this.failure ??= err;
      this.fail(this.failure);
    });
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }

  private async open(): Promise<void> {
    const { from: copyFrom } = await import('pg-copy-streams');
    const t = this.target;
    if (!this.direct && !this.stagingState.created) {
      this.queue(() => this.client.query(`CREATE TEMP TABLE ${t.staging} (url text COLLATE "C" NOT NULL, ${t.stagingColumns}) ON COMMIT DROP`));
      this.stagingState.created = true;
    }
    const columns = this.direct ? ['store', 'url', ...t.columns] : ['url', ...t.columns];
    const table = this.direct ? t.table : t.staging;
    const input = new PassThrough({ highWaterMark: QUEUED_BYTES });
    this.input = input;
    this.queue(() => pipeline(input, this.client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN (FORMAT binary)`))));
    this.encoder = this.direct
      ? new CopyEncoder(['int4', 'text', ...t.types], [this.store])
      : new CopyEncoder(['text', ...t.types]);
  }

  /** Adds rows (URL first, then the value columns), in URL order after every row added before. */
  async add(rows: readonly SortRow[]): Promise<void> {
    for (const row of rows) {
      this.check();
      if (!this.encoder) await this.open();
      this.encoder!.add(row as unknown as CopyValue[]);
      this.rows++;
      if (this.encoder!.completedChunks > 0) await this.write(this.encoder!.drain());
      if (!this.direct && ++this.staged >= MERGE_ROWS) await this.endCopy();
    }
  }

  private async write(chunks: Buffer[]): Promise<void> {
    const input = this.input!;
    for (const c of chunks) {
      if (!input.write(c)) await Promise.race([once(input, 'drain'), this.failed]);
    }
  }

  /** Ends the open COPY; staged rows are then merged into the store. */
  private async endCopy(): Promise<void> {
    if (!this.encoder) return;
    await this.write(this.encoder.chunks());
    this.encoder = null;
    this.input!.end();
    this.input = null;
    if (!this.direct && this.staged > 0) {
      const t = this.target;
      const cols = ['url', ...t.columns].join(', ');
      const set = t.columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ');
      this.queue(() => this.client.query(
        `INSERT INTO ${t.table} (store, ${cols}) SELECT $1::integer, ${cols} FROM ${t.staging}
         ON CONFLICT (store, url) DO UPDATE SET ${set}`, [this.store]));
      // in place: the staging table was created in this transaction
      this.queue(() => this.client.query(`TRUNCATE ${t.staging}`));
    }
    this.staged = 0;
  }

  /** Every row added is in the store (as the session sees it). */
  async finish(): Promise<void> {
    this.check();
    await this.endCopy();
    await this.tail;
    this.check();
  }

  /** Abandons the write (the session is being rolled back); resolves once the connection is free. */
  async destroy(): Promise<void> {
    this.failure ??= new Error('update session aborted');
    this.input?.destroy(this.failure as Error);
    this.input = null;
    this.encoder = null;
    await this.tail;
  }
}
