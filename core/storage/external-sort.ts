/**
 * An external merge sort by URL (or any string key) for the database stages: rows are buffered up
 * to `runSize` and sorted into a run (stable, in the stores' code point order; native string order
 * while no key holds NUL or a char >= U+D800). Up to `memoryRows` sorted rows stay in memory; older
 * runs spill to an anonymous temporary SQLite database (deleted by SQLite on close or when the
 * process dies). sorted() is a k-way merge of all runs. Memory is bounded by runSize + memoryRows
 * plus a page per spilled run; no step is one long synchronous block (a run of 4096 rows sorts or
 * spills in a few ms; reads are paged).
 *
 * Appending to a rowid table and merging sorted runs is an order of magnitude faster than inserting
 * into a (url, seq) B-tree, and never needs SQLite's one-shot ORDER BY sort of the whole table.
 * This is local scratch space, not a store, the same whatever the engine: stages use it to sort what
 * they read before writing through an update session.
 */
import type Database from 'better-sqlite3';
import { sqliteDriver } from './sqlite/open-database.js';
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
  /** Sorted rows kept in memory before the oldest runs spill to the temporary database. */
  memoryRows?: number;
  cacheMb?: number;
}

const NON_PLAIN = /[\u0000\uD800-\uFFFF]/;

function nativeCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface RunCursor {
  /** A spilled run: rowid range; a memory run: rows. */
  end: number;
  after: number;
  page: SortRow[];
  pos: number;
  index: number;
  memory: boolean;
}

type Run = { start: number; end: number; rows?: undefined } | { rows: SortRow[]; start?: undefined; end?: undefined };

export class ExternalSort {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly append: (rows: SortRow[]) => void;
  private readonly runSize: number;
  private readonly pageSize: number;
  private buffer: SortRow[] = [];
  private readonly runs: Run[] = [];
  private readonly memoryRows: number;
  private inMemory = 0;
  private readonly columnList: string;
  private rowid = 0;
  private total = 0;
  /** While every key is free of chars >= U+D800, native string order equals code point order. */
  private compare: (a: string, b: string) => number = nativeCompare;

  constructor(opts: ExternalSortOptions) {
    this.runSize = Math.max(1, opts.runSize ?? 4096);
    this.pageSize = Math.max(1, opts.pageSize ?? 512);
    this.memoryRows = Math.max(0, opts.memoryRows ?? 131_072);
    this.db = new (sqliteDriver())('');
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma(`cache_size = -${Math.max(2, opts.cacheMb ?? 16) * 1024}`);
    const cols = Array.from({ length: opts.columns }, (_, i) => `c${i}`);
    this.columnList = ['k', ...cols].join(', ');
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
    if (this.compare === nativeCompare && NON_PLAIN.test(row[0])) this.compare = compareUrls;
    this.buffer.push(row);
    this.total++;
    if (this.buffer.length >= this.runSize) this.flushRun();
  }

  /** Sorts the buffer into a run; the oldest memory runs spill to the database past memoryRows. */
  private flushRun(): void {
    if (this.buffer.length === 0) return;
    const rows = this.sortBuffer();
    this.runs.push({ rows });
    this.inMemory += rows.length;
    for (let i = 0; this.inMemory > this.memoryRows && i < this.runs.length; i++) {
      const run = this.runs[i]!;
      if (!run.rows) continue;
      const start = this.rowid + 1;
      for (let j = 0; j < run.rows.length; j += 1000) this.append(run.rows.slice(j, j + 1000));
      this.inMemory -= run.rows.length;
      this.runs[i] = { start, end: this.rowid };
    }
  }

  /**
   * Stable sort of the buffer. With native order, a decorated key (key, NUL, fixed-width index)
   * sorted by the engine's default string sort avoids a JavaScript comparator call per comparison.
   */
  private sortBuffer(): SortRow[] {
    const buf = this.buffer;
    this.buffer = [];
    if (this.compare !== nativeCompare) {
      const compare = this.compare;
      return buf.sort((a, b) => compare(a[0], b[0]));
    }
    const width = String(buf.length).length;
    const keys = new Array<string>(buf.length);
    for (let i = 0; i < buf.length; i++) keys[i] = `${buf[i]![0]}\u0000${String(i).padStart(width, '0')}`;
    keys.sort();
    const out = new Array<SortRow>(buf.length);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      out[i] = buf[Number(k.slice(k.length - width))]!;
    }
    return out;
  }

  /** Every row in key order (ties: insertion order). Call once, after the last add(). */
  *sorted(): Generator<SortRow> {
    if (this.runs.length === 0) {
      yield* this.sortBuffer();
      return;
    }
    this.flushRun();
    // Opening the merge loads one page per spilled run: keep that first step small.
    const spilled = this.runs.filter((r) => !r.rows).length;
    const pageSize = Math.max(16, Math.min(this.pageSize, Math.floor(4096 / Math.max(1, spilled))));
    // A spilled run's rowids are contiguous, so the id column need not be read back.
    const page = this.db.prepare(`SELECT ${this.columnList} FROM runs WHERE id > ? AND id <= ? ORDER BY id LIMIT ?`).raw(true);
    const load = (c: RunCursor): boolean => {
      if (c.memory) return false;
      const rows = page.all(c.after, c.end, pageSize) as SortRow[];
      if (rows.length === 0) return false;
      c.after += rows.length;
      c.page = rows;
      c.pos = 0;
      return true;
    };
    const heap: RunCursor[] = [];
    const compare = this.compare;
    const less = (a: RunCursor, b: RunCursor) => {
      const cmp = compare(a.page[a.pos]![0], b.page[b.pos]![0]);
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
      if (run.rows) {
        if (run.rows.length > 0) heap.push({ end: 0, after: 0, page: run.rows, pos: 0, index, memory: true });
        return;
      }
      const c: RunCursor = { end: run.end, after: run.start - 1, page: [], pos: 0, index, memory: false };
      if (load(c)) heap.push(c);
    });
    this.runs.length = 0;
    this.inMemory = 0;
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
