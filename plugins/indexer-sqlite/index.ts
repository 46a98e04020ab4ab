/**
 * indexer-sqlite: the embedded full-text index, SQLite FTS5 in `<crawl>/index/index.sqlite` (or the
 * `path` parameter, a directory). Documents are upserted by id and deleted by id; all changes of a
 * run sit in one transaction until commit(), so a failed run (abort) leaves the previous index as it
 * was. Implements the searcher capability: BM25 ranking (url, title, content, anchor weighted by the
 * `weights` parameter) and FTS5 snippets.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { NutchError, type IndexWriter, type IndexWriterParams, type NutchDocument, type SearchHit } from '../../sdk/plugin.js';
import { toFtsQuery } from './fts-query.js';

export const INDEX_FILE = 'index.sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS documents (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, boost REAL NOT NULL, fields TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS documents_fts USING fts5(url, title, content, anchor, tokenize = 'unicode61 remove_diacritics 2');
`;

/** The FTS columns, and the document fields they are filled from. */
const FTS_FIELDS = ['url', 'title', 'content', 'anchor'] as const;

type Db = InstanceType<typeof Database>;

function text(values: unknown[] | undefined, sep: string): string {
  if (!values?.length) return '';
  return values.map((v) => (v instanceof Date ? v.toISOString() : String(v))).join(sep);
}

export class SqliteIndexWriter implements IndexWriter {
  private dir = '';
  private writerId = 'indexer-sqlite';
  private db: Db | null = null;
  private inTransaction = false;
  private weights: number[] = [2, 5, 1, 3];
  private snippetStart = '<b>';
  private snippetEnd = '</b>';
  private statements: Record<string, Database.Statement> = {};

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

  /** Opens (creating when `create`) the index database on first use. */
  private connect(create: boolean): Db | null {
    if (this.db) return this.db;
    if (!create && !existsSync(this.file)) return null;
    mkdirSync(this.dir, { recursive: true });
    const db = new Database(this.file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA);
    this.statements = {
      rowid: db.prepare('SELECT rowid FROM documents WHERE id = ?'),
      insertDoc: db.prepare('INSERT INTO documents (id, boost, fields) VALUES (?, ?, ?)'),
      updateDoc: db.prepare('UPDATE documents SET boost = ?, fields = ? WHERE rowid = ?'),
      deleteDoc: db.prepare('DELETE FROM documents WHERE rowid = ?'),
      insertFts: db.prepare('INSERT INTO documents_fts (rowid, url, title, content, anchor) VALUES (?, ?, ?, ?, ?)'),
      deleteFts: db.prepare('DELETE FROM documents_fts WHERE rowid = ?'),
    };
    this.db = db;
    return db;
  }

  private begin(): Db {
    const db = this.connect(true)!;
    if (!this.inTransaction) {
      db.exec('BEGIN IMMEDIATE');
      this.inTransaction = true;
    }
    return db;
  }

  async write(doc: NutchDocument): Promise<void> {
    this.begin();
    const id = text(doc.fields.id, '') || text(doc.fields.url, '');
    if (!id) throw new NutchError('NUTCH_INDEX_WRITER_FAILED', `indexer-sqlite writer ${this.writerId}: document has no "id" field.`, { writer: this.writerId });
    const stored: Record<string, unknown[]> = {};
    for (const [k, v] of Object.entries(doc.fields)) if (k !== 'content') stored[k] = v;
    const json = JSON.stringify(stored);
    const cols = FTS_FIELDS.map((f) => (f === 'url' ? text(doc.fields.url, ' ') || id : text(doc.fields[f], f === 'anchor' ? '\n' : ' ')));
    const s = this.statements;
    const existing = s.rowid.get(id) as { rowid: number } | undefined;
    if (existing) {
      s.deleteFts.run(existing.rowid);
      s.updateDoc.run(doc.weight, json, existing.rowid);
      s.insertFts.run(existing.rowid, ...cols);
    } else {
      const info = s.insertDoc.run(id, doc.weight, json);
      s.insertFts.run(info.lastInsertRowid, ...cols);
    }
  }

  async update(doc: NutchDocument): Promise<void> {
    return this.write(doc);
  }

  async delete(key: string): Promise<void> {
    this.begin();
    const existing = this.statements.rowid.get(key) as { rowid: number } | undefined;
    if (!existing) return;
    this.statements.deleteFts.run(existing.rowid);
    this.statements.deleteDoc.run(existing.rowid);
  }

  async commit(): Promise<void> {
    if (this.db && this.inTransaction) {
      this.db.exec('COMMIT');
      this.inTransaction = false;
    }
  }

  /** Closing keeps what was written (the embedded index has no separate visibility step). */
  async close(): Promise<void> {
    await this.commit();
    this.db?.close();
    this.db = null;
  }

  async abort(): Promise<void> {
    if (this.db && this.inTransaction) this.db.exec('ROLLBACK');
    this.inTransaction = false;
    this.db?.close();
    this.db = null;
  }

  /** Number of documents in the index. */
  async count(): Promise<number> {
    const db = this.connect(false);
    return db ? (db.prepare('SELECT count(*) AS n FROM documents').get() as { n: number }).n : 0;
  }

  async search(query: string, opts: { limit: number }): Promise<SearchHit[]> {
    const db = this.connect(false);
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
