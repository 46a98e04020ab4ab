/**
 * An external merge sort by URL (or any string key) for the database stages: rows are buffered in
 * memory up to `runSize`, sorted (stable, in the stores' code point order), appended as one sorted
 * run to an anonymous temporary SQLite database (deleted by SQLite on close or when the process
 * dies), and read back through a k-way merge of the runs. Memory is bounded by runSize plus a page
 * per run; no step is one long synchronous block (a run sort is ~10 ms; reads are paged).
 *
 * Appending to a rowid table and merging sorted runs is an order of magnitude faster than inserting
 * into a (url, seq) B-tree, and never needs SQLite's one-shot ORDER BY sort of the whole table.
 * This is scratch space, not a store: the CrawlDb and LinkDb are reached only through core/storage.
 */
import Database from 'better-sqlite3';
import { compareUrls } from './url-order.js';

/** A row: the sort key first, then the payload columns. */
export type SortRow = [string, ...unknown[]];

export interface ExternalSortOptions {
  /** Payload column count (after the key). */
  columns: number;
  /** Rows per sorted run (memory bound). */
  runSize?: number;
  /** Rows read per run per page during the merge. */
  pageSize?: number;
  cacheMb?: number;
}

interface RunCursor {
  end: number;
  after: number;
  page: SortRow[];
  pos: number;
  index: number;
}

export class ExternalSort {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly append: (rows: SortRow[]) => void;
  private readonly runSize: number;
  private readonly pageSize: number;
  private buffer: SortRow[] = [];
  private readonly runs: { start: number; end: number }[] = [];
  private rowid = 0;
  private total = 0;

  constructor(opts: ExternalSortOptions) {
    this.runSize = Math.max(1, opts.runSize ?? 20_000);
    this.pageSize = Math.max(1, opts.pageSize ?? 512);
    this.db = new Database('');
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma(`cache_size = -${Math.max(2, opts.cacheMb ?? 16) * 1024}`);
    const cols = Array.from({ length: opts.columns }, (_, i) => `c${i}`);
    this.db.exec(`CREATE TABLE runs (id INTEGER PRIMARY KEY, k TEXT NOT NULL${cols.map((c) => `, ${c}`).join('')})`);
    this.insert = this.db.prepare(`INSERT INTO runs VALUES (?, ?${cols.map(() => ', ?').join('')})`);
    this.append = this.db.transaction((rows: SortRow[]) => {
      for (const r of rows) this.insert.run(++this.rowid, ...r);
    });
  }

  /** Rows added so far. */
  get size(): number {
    return this.total;
  }

  add(row: SortRow): void {
    this.buffer.push(row);
    this.total++;
    if (this.buffer.length >= this.runSize) this.flushRun();
  }

  private flushRun(): void {
    if (this.buffer.length === 0) return;
    // Array.prototype.sort is stable: rows with the same key keep their insertion order.
    this.buffer.sort((a, b) => compareUrls(a[0], b[0]));
    const start = this.rowid + 1;
    for (let i = 0; i < this.buffer.length; i += 1000) this.append(this.buffer.slice(i, i + 1000));
    this.runs.push({ start, end: this.rowid });
    this.buffer = [];
  }

  /** Every row in key order (ties: insertion order). Call once, after the last add(). */
  *sorted(): Generator<SortRow> {
    if (this.runs.length === 0) {
      // Everything fits in one run: no need to go through the database.
      const rows = this.buffer.sort((a, b) => compareUrls(a[0], b[0]));
      this.buffer = [];
      yield* rows;
      return;
    }
    this.flushRun();
    const page = this.db.prepare('SELECT * FROM runs WHERE id > ? AND id <= ? ORDER BY id LIMIT ?').raw(true);
    const load = (c: RunCursor): boolean => {
      const rows = page.all(c.after, c.end, this.pageSize) as unknown[][];
      if (rows.length === 0) return false;
      c.after = rows[rows.length - 1]![0] as number;
      c.page = rows.map((r) => r.slice(1) as SortRow);
      c.pos = 0;
      return true;
    };
    const heap: RunCursor[] = [];
    const less = (a: RunCursor, b: RunCursor) => {
      const cmp = compareUrls(a.page[a.pos]![0], b.page[b.pos]![0]);
      return cmp < 0 || (cmp === 0 && a.index < b.index);
    };
    const down = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
        if (m === i) return;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    };
    this.runs.forEach((run, index) => {
      const c: RunCursor = { end: run.end, after: run.start - 1, page: [], pos: 0, index };
      if (load(c)) heap.push(c);
    });
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
    while (heap.length > 0) {
      const top = heap[0]!;
      yield top.page[top.pos]!;
      if (++top.pos >= top.page.length && !load(top)) {
        heap[0] = heap[heap.length - 1]!;
        heap.pop();
      }
      if (heap.length > 0) down(0);
    }
  }

  close(): void {
    this.buffer = [];
    if (this.db.open) this.db.close();
  }
}
