/**
 * indexer-sqlite: the embedded full-text index, SQLite FTS5 in `<crawl>/index/index.sqlite` (or the
 * `path` parameter, a directory). Documents are upserted by id and deleted by id; all changes of a
 * run sit in one transaction until commit(), so a failed run (abort) leaves the previous index as it
 * was. Writes go in batches to a worker thread (write-worker.ts) that owns the write connection;
 * searches read committed data on the main thread: BM25 ranking (url, title, content, anchor weighted
 * by the `weights` parameter) and FTS5 snippets.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { NutchError, type IndexWriter, type IndexWriterParams, type NutchDocument, type SearchHit } from '../../sdk/plugin.js';
import { toFtsQuery } from './fts-query.js';
import { WriteWorker, type Action } from './write-worker.js';

export const INDEX_FILE = 'index.sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS documents (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, boost REAL NOT NULL, fields TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS documents_fts USING fts5(url, title, content, anchor, tokenize = 'unicode61 remove_diacritics 2');
`;

/** The FTS columns, and the document fields they are filled from. */
const FTS_FIELDS = ['url', 'title', 'content', 'anchor'] as const;

type Db = InstanceType<typeof Database>;

/** Documents per message to the write worker: whole page texts, so a batch is a few MB. */
const BATCH = 100;

function text(values: unknown[] | undefined, sep: string): string {
  if (!values?.length) return '';
  return values.map((v) => (v instanceof Date ? v.toISOString() : String(v))).join(sep);
}

export class SqliteIndexWriter implements IndexWriter {
  private dir = '';
  private writerId = 'indexer-sqlite';
  /** Main-thread connection for search and count (reads committed data). */
  private reader: Db | null = null;
  private worker: WriteWorker | null = null;
  private pending: Action[] = [];
  private weights: number[] = [2, 5, 1, 3];
  private snippetStart = '<b>';
  private snippetEnd = '</b>';

  async open(params: IndexWriterParams): Promise<void> {
    this.writerId = params.writerId;
    const p = params.parameters;
    const dir = p.path ?? (params.crawlDir ? join(params.crawlDir, 'index') : undefined);
    if (!dir) throw new NutchError('NUTCH_INDEX_WRITERS_INVALID', `indexer-sqlite writer ${params.writerId}: no index directory; give the stage a crawl directory or set the "path" parameter in index-writers.json.`, { writer: params.writerId });
    this.dir = dir;
    if (p.weights) {
      const w = p.weights.split(',').map(Number);
      if (w.length !== 4 || w.some((n) => !Number.isFinite(n))) throw new NutchError('NUTCH_INDEX_WRITERS_INVALID', `indexer-sqlite writer ${params.writerId}: parameter "weights" must be four numbers (url,title,content,anchor), got "${p.weights}".`, { writer: params.writerId });
      this.weights = w;
    }
    if (p['snippet.start'] !== undefined) this.snippetStart = p['snippet.start'];
    if (p['snippet.end'] !== undefined) this.snippetEnd = p['snippet.end'];
  }

  get file(): string {
    return join(this.dir, INDEX_FILE);
  }

  private writes(): WriteWorker {
    if (!this.worker) {
      mkdirSync(this.dir, { recursive: true });
      this.worker = new WriteWorker(this.file, SCHEMA);
    }
    return this.worker;
  }

  /** The read connection, or null while no index exists. */
  private read(): Db | null {
    if (this.reader) return this.reader;
    if (!existsSync(this.file)) return null;
    const db = new Database(this.file);
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name IN ('documents', 'documents_fts')").get() as { n: number };
    if (tables.n < 2) {
      db.close();
      return null;
    }
    this.reader = db;
    return db;
  }

  private fail(err: unknown): NutchError {
    return new NutchError('NUTCH_INDEX_WRITER_FAILED', `indexer-sqlite writer ${this.writerId} (${this.file}): ${(err as Error)?.message ?? err}`, { writer: this.writerId, file: this.file }, { cause: err });
  }

  private async push(action: Action): Promise<void> {
    this.pending.push(action);
    if (this.pending.length >= BATCH) await this.flush();
  }

  private async flush(): Promise<void> {
    if (!this.pending.length) return;
    const actions = this.pending;
    this.pending = [];
    try {
      await this.writes().batch(actions);
    } catch (err) {
      throw this.fail(err);
    }
  }

  async write(doc: NutchDocument): Promise<void> {
    const id = text(doc.fields.id, '') || text(doc.fields.url, '');
    if (!id) throw new NutchError('NUTCH_INDEX_WRITER_FAILED', `indexer-sqlite writer ${this.writerId}: document has no "id" field.`, { writer: this.writerId });
    const stored: Record<string, unknown[]> = {};
    for (const [k, v] of Object.entries(doc.fields)) if (k !== 'content') stored[k] = v;
    const cols = FTS_FIELDS.map((f) => (f === 'url' ? text(doc.fields.url, ' ') || id : text(doc.fields[f], f === 'anchor' ? '\n' : ' '))) as [string, string, string, string];
    await this.push({ op: 'upsert', row: { id, boost: Number.isFinite(doc.weight) ? doc.weight : 1, fields: JSON.stringify(stored), cols } });
  }

  async update(doc: NutchDocument): Promise<void> {
    return this.write(doc);
  }

  async delete(key: string): Promise<void> {
    await this.push({ op: 'delete', id: key });
  }

  async commit(): Promise<void> {
    await this.flush();
    if (!this.worker) return;
    try {
      await this.worker.commit();
    } catch (err) {
      throw this.fail(err);
    }
  }

  /** Closing keeps what was written (the embedded index has no separate visibility step). */
  async close(): Promise<void> {
    try {
      await this.commit();
    } finally {
      await this.worker?.close();
      this.worker = null;
      this.reader?.close();
      this.reader = null;
    }
  }

  async abort(): Promise<void> {
    this.pending = [];
    if (this.worker) {
      await this.worker.rollback();
      await this.worker.close();
      this.worker = null;
    }
    this.reader?.close();
    this.reader = null;
  }

  /** Number of committed documents in the index. */
  async count(): Promise<number> {
    const db = this.read();
    return db ? (db.prepare('SELECT count(*) AS n FROM documents').get() as { n: number }).n : 0;
  }

  async search(query: string, opts: { limit: number }): Promise<SearchHit[]> {
    const db = this.read();
    if (!db) throw new NutchError('NUTCH_INDEX_NOT_FOUND', `No index at ${this.file}; run nutch index (or nutch crawl -i) first.`, { file: this.file });
    const match = toFtsQuery(query);
    if (!match || opts.limit <= 0) return [];
    // Rank first, then build snippets for the top hits only (snippet() on every match is the slow part).
    const rows = db.prepare(
      `WITH top AS (
         SELECT rowid, bm25(documents_fts, ?, ?, ?, ?) AS rank FROM documents_fts
          WHERE documents_fts MATCH ? ORDER BY rank LIMIT ?)
       SELECT d.id AS id, f.url AS url, f.title AS title,
              snippet(documents_fts, -1, ?, ?, '…', 24) AS snippet, top.rank AS rank
         FROM top JOIN documents_fts f ON f.rowid = top.rowid JOIN documents d ON d.rowid = top.rowid
        WHERE documents_fts MATCH ? ORDER BY top.rank`,
    ).all(...this.weights, match, Math.floor(opts.limit), this.snippetStart, this.snippetEnd, match) as { id: string; url: string; title: string; snippet: string; rank: number }[];
    return rows.map((r) => ({ id: r.id, url: r.url, title: r.title, snippet: r.snippet, score: -r.rank }));
  }
}
