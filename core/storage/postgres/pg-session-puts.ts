/**
 * An update session's puts on their way to the store. The store takes one row per URL in key order
 * (StoreWriter); how they get there depends on the order they are put in:
 *   - in URL order (updatedb, invertlinks and the HostDb merge their input with the store's scan
 *     and put their results in key order): once a run's worth has come in order, they are streamed
 *     to the server as they come (StoreWriter), so the server stores them while the stage computes
 *     the next ones, and nothing is sorted twice;
 *   - in any other order (inject's seeds, generate's marks): from the first row out of order on,
 *     the rows not yet streamed go into an external sort by URL (runs spilled to a scratch file,
 *     memory bounded) and are written in ONE pass in key order when a read, a delete or the commit
 *     needs them.
 * Either way the last record put for a URL wins and the server neither sorts nor deduplicates.
 */
import { ExternalSort, type SortRow } from '../external-sort.js';
import { compareUrls } from '../url-order.js';
import { yieldToEventLoop } from '../yield.js';
import type { StoreWriter } from './pg-store-writer.js';

/** Rows per sorted run; also the in-order rows gathered before streaming starts. */
const RUN_ROWS = 8192;
/** Value bytes (about) after which a run is cut short (large LinkDb values). */
const RUN_BYTES = 8 << 20;
/** Rows handed to the writer between two turns of the event loop when a sort is written out. */
const ROWS_PER_TURN = 2048;

export class SessionPuts {
  /** The last row put while in order (held back: the next may be the same URL, which wins). */
  private held: SortRow | null = null;
  /** In-order rows not yet streamed (up to a run). */
  private prefix: SortRow[] = [];
  private prefixBytes = 0;
  private writer: StoreWriter | null = null;
  /** Set from the first row out of order until the next settle. */
  private sort: ExternalSort | null = null;
  private sortBytes = 0;
  /** Rows written to the store so far. */
  written = 0;

  constructor(private readonly columns: number, private readonly openWriter: () => Promise<StoreWriter>) {}

  /** Nothing put waits to be written. */
  get idle(): boolean {
    return this.held === null && this.prefix.length === 0 && this.writer === null && this.sort === null;
  }

  /** Takes put rows (URL first) in put order; in order, they may be streamed at once. Runs on the session's connection. */
  async add(rows: readonly SortRow[]): Promise<void> {
    const out: SortRow[] = [];
    for (const row of rows) {
      if (this.sort) {
        this.addToSort(row);
        continue;
      }
      const held = this.held;
      this.held = row;
      if (held === null) continue;
      const cmp = compareUrls(held[0], row[0]);
      if (cmp < 0) out.push(held);
      else if (cmp > 0) {
        // out of order: what was not streamed yet is sorted with the rest, in put order (a stable sort: the last put wins)
        await this.emit(out);
        out.length = 0;
        this.sort = new ExternalSort({ columns: this.columns, runSize: RUN_ROWS, memoryRows: 0, pageSize: 16 });
        for (const r of this.prefix) this.addToSort(r);
        this.prefix = [];
        this.prefixBytes = 0;
        this.addToSort(held);
        this.addToSort(row);
        this.held = null;
      }
    }
    await this.emit(out);
  }

  private addToSort(row: SortRow): void {
    this.sort!.add(row);
    this.sortBytes += rowBytes(row);
    if (this.sortBytes >= RUN_BYTES) {
      this.sort!.endRun();
      this.sortBytes = 0;
    }
  }

  /** In-order rows: streamed once a run's worth has come in order. */
  private async emit(rows: SortRow[]): Promise<void> {
    if (rows.length === 0) return;
    if (this.writer) {
      await this.writer.add(rows);
      return;
    }
    for (const r of rows) {
      this.prefix.push(r);
      this.prefixBytes += rowBytes(r);
    }
    if (this.prefix.length >= RUN_ROWS || this.prefixBytes >= RUN_BYTES) {
      this.writer = await this.openWriter();
      const prefix = this.prefix;
      this.prefix = [];
      this.prefixBytes = 0;
      await this.writer.add(prefix);
    }
  }

  /** Every row put so far is in the store. Runs on the session's connection. */
  async settle(): Promise<void> {
    if (this.held) {
      const held = this.held;
      this.held = null;
      await this.emit([held]);
    }
    if (!this.writer && this.prefix.length > 0) {
      this.writer = await this.openWriter();
      await this.writer.add(this.prefix);
      this.prefix = [];
      this.prefixBytes = 0;
    }
    if (this.writer) {
      const w = this.writer;
      await w.finish();
      this.writer = null;
      this.written += w.rows;
    }
    const sort = this.sort;
    if (!sort) return;
    this.sort = null;
    this.sortBytes = 0;
    try {
      // kept as this.writer until finished, so that drop() ends its COPY if the session fails meanwhile
      const w = (this.writer = await this.openWriter());
      let batch: SortRow[] = [];
      for (const row of lastOfEachUrl(sort.sorted())) {
        batch.push(row);
        if (batch.length >= ROWS_PER_TURN) {
          await w.add(batch);
          batch = [];
          await yieldToEventLoop();
        }
      }
      await w.add(batch);
      await w.finish();
      this.writer = null;
      this.written += w.rows;
    } finally {
      sort.close();
    }
  }

  /** Drops what was not written (the session is being rolled back); resolves once the connection is free. */
  async drop(): Promise<void> {
    const writer = this.writer;
    this.writer = null;
    this.sort?.close();
    this.sort = null;
    this.sortBytes = 0;
    this.held = null;
    this.prefix = [];
    this.prefixBytes = 0;
    await writer?.destroy();
  }
}

/** The last row of each URL of a sorted stream (a stable sort keeps a URL's rows in the order they were put). */
function* lastOfEachUrl(rows: Iterable<SortRow>): Generator<SortRow> {
  let prev: SortRow | null = null;
  for (const row of rows) {
    if (prev !== null && prev[0] !== row[0]) yield prev;
    prev = row;
  }
  if (prev !== null) yield prev;
}

/** About how many bytes a row holds (strings and bytes; numbers count 8). */
function rowBytes(row: SortRow): number {
  let n = 0;
  for (const v of row) n += typeof v === 'string' ? v.length : v instanceof Uint8Array ? v.byteLength : 8;
  return n;
}
