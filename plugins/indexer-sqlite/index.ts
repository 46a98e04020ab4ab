/**
 * indexer-sqlite: the embedded full-text index, SQLite FTS5 in `<crawl>/index/index.sqlite` (or the
 * `path` parameter, a directory). Documents are upserted by id and deleted by id; all changes of a
 * run sit in one transaction until commit(), so a failed run (abort) leaves the previous index as it
 * was. Writes go in batches to a worker thread (write-worker.ts) that owns the write connection;
 * searches read committed data on the main thread: BM25 (url, title, content, anchor, headings weighted
 * by the `weights` parameter) picks the candidates, rerank.ts orders them by where the query's words
 * sit (title, URL path, headings, anchors, body proximity), and FTS5 makes the snippets.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { NutchError, type IndexWriter, type IndexWriterParams, type NutchDocument, type SearchHit } from '../../sdk/plugin.js';
import { toFtsQuery } from './fts-query.js';
import { DEFAULT_RANK_WEIGHTS, rerank, tokens, type RankWeights } from './rerank.js';
import { WriteWorker, type Action, type UpsertRow } from './write-worker.js';

export const INDEX_FILE = 'index.sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS documents (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, boost REAL NOT NULL, fields TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS documents_fts USING fts5(url, title, content, anchor, headings, tokenize = 'unicode61 remove_diacritics 2');
`;

/** The FTS columns, and the document fields they are filled from (`headings`: parse-html's, via index-basic). */
const FTS_FIELDS = ['url', 'title', 'content', 'anchor', 'headings'] as const;
const MULTI_VALUE_SEP: Partial<Record<(typeof FTS_FIELDS)[number], string>> = { anchor: '\n', headings: '\n' };

/** BM25 column weights: url, title, content, anchor, headings. */
const DEFAULT_WEIGHTS = [2, 5, 1, 3, 3];

/** Candidates BM25 hands to the re-ranking (more finds pages BM25 ranks low, at the cost of reading their text). */
const DEFAULT_CANDIDATES = 100;

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
  private weights: number[] = DEFAULT_WEIGHTS;
  private rankWeights: RankWeights = { ...DEFAULT_RANK_WEIGHTS };
  private candidates = DEFAULT_CANDIDATES;
  /** Whether the index has the headings column (an index written before it had four columns). */
  private hasHeadings = true;
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
      if ((w.length !== 4 && w.length !== 5) || w.some((n) => !Number.isFinite(n))) throw new NutchError('NUTCH_INDEX_WRITERS_INVALID', `indexer-sqlite writer ${params.writerId}: parameter "weights" must be four or five numbers (url,title,content,anchor[,headings]), got "${p.weights}".`, { writer: params.writerId });
      this.weights = w.length === 5 ? w : [...w, DEFAULT_WEIGHTS[4]!];
    }
    for (const key of Object.keys(DEFAULT_RANK_WEIGHTS) as (keyof RankWeights)[]) {
      const v = p[`rank.${key}`];
      if (v === undefined) continue;
      const n = Number(v);
      if (v.trim() === '' || !Number.isFinite(n) || n < 0) throw new NutchError('NUTCH_INDEX_WRITERS_INVALID', `indexer-sqlite writer ${params.writerId}: parameter "rank.${key}" must be a number >= 0, got "${v}".`, { writer: params.writerId });
      this.rankWeights[key] = n;
    }
    if (p['rank.candidates'] !== undefined) {
      const n = Number(p['rank.candidates']);
      if (!Number.isInteger(n) || n < 1) throw new NutchError('NUTCH_INDEX_WRITERS_INVALID', `indexer-sqlite writer ${params.writerId}: parameter "rank.candidates" must be an integer >= 1, got "${p['rank.candidates']}".`, { writer: params.writerId });
      this.candidates = n;
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
    const columns = db.prepare("SELECT name FROM pragma_table_info('documents_fts')").all() as { name: string }[];
    this.hasHeadings = columns.some((c) => c.name === 'headings');
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
    const cols = FTS_FIELDS.map((f) => (f === 'url' ? text(doc.fields.url, ' ') || id : text(doc.fields[f], MULTI_VALUE_SEP[f] ?? ' '))) as UpsertRow['cols'];
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
    const all = toFtsQuery(query);
    if (!all || opts.limit <= 0) return [];
    const limit = Math.floor(opts.limit);
    const weights = this.hasHeadings ? this.weights : this.weights.slice(0, 4);
    // Rank by BM25 first, then read the text of the chosen rows only: selecting the columns in the
    // ranking query would make SQLite read every matching page's text before sorting.
    const pick = db.prepare(`SELECT rowid, bm25(documents_fts, ${weights.map(() => '?').join(', ')}) AS rank FROM documents_fts WHERE documents_fts MATCH ? ORDER BY rank LIMIT ?`);
    const want = Math.max(limit, this.candidates);
    const picked = pick.all(...weights, all, want) as { rowid: number; rank: number }[];
    // Every word must match (FTS5's implicit AND); when that leaves too few, pages with only some of
    // the words follow, so a query with one word the site does not use still finds its page.
    const any = picked.length < limit ? toFtsQuery(query, 'OR') : null;
    if (any && any !== all) {
      const seen = new Set(picked.map((r) => r.rowid));
      for (const r of pick.all(...weights, any, want) as { rowid: number; rank: number }[]) if (!seen.has(r.rowid)) picked.push({ rowid: r.rowid, rank: r.rank / 2 });
    }
    if (!picked.length) return [];
    const ids = picked.map((r) => r.rowid);
    const inIds = `rowid IN (${ids.map(() => '?').join(', ')})`;
    // The short fields come from the stored document (no page text is read); body proximity from
    // FTS5's position lists: the query's words as a phrase, else within a few words of each other.
    const stored = new Map((db.prepare(`SELECT rowid, id, fields FROM documents WHERE ${inIds}`).all(...ids) as { rowid: number; id: string; fields: string }[])
      .map((r) => [r.rowid, { id: r.id, fields: JSON.parse(r.fields) as Record<string, unknown[]> }]));
    const terms = [...new Set(tokens(query))];
    const near = new Map<number, number>();
    if (terms.length >= 2) {
      const quoted = terms.map((t) => `"${t}"`);
      const within = (match: string) => (db.prepare(`SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? AND ${inIds}`).all(match, ...ids) as { rowid: number }[]).map((r) => r.rowid);
      for (const id of within(`content : NEAR(${quoted.join(' ')}, ${2 * terms.length})`)) near.set(id, 0.5);
      for (const id of within(`content : "${terms.join(' ')}"`)) near.set(id, 1);
    }
    const field = (f: Record<string, unknown[]> | undefined, name: string, sep: string) => (f?.[name] ?? []).map(String).join(sep);
    const rows = picked.map((p) => {
      const d = stored.get(p.rowid)?.fields;
      return { rowid: p.rowid, id: stored.get(p.rowid)?.id, url: field(d, 'url', ' ') || stored.get(p.rowid)?.id || '', title: field(d, 'title', ' '), anchor: field(d, 'anchor', '\n'), headings: field(d, 'headings', '\n'), proximity: near.get(p.rowid) ?? 0, rank: p.rank };
    });
    const ranked = rerank(query, rows.map((r) => ({ ...r, bm25: r.rank })), this.rankWeights).slice(0, limit);
    if (!ranked.length) return [];
    const top = ranked.map((r) => r.candidate.rowid);
    const snippets = new Map(
      (db.prepare(
        `SELECT f.rowid AS rowid, d.id AS id, snippet(documents_fts, -1, ?, ?, '…', 24) AS snippet
           FROM documents_fts f JOIN documents d ON d.rowid = f.rowid
          WHERE documents_fts MATCH ? AND f.rowid IN (${top.map(() => '?').join(', ')})`,
      ).all(this.snippetStart, this.snippetEnd, any ?? all, ...top) as { rowid: number; id: string; snippet: string }[]).map((r) => [r.rowid, r]),
    );
    return ranked.map(({ candidate: c, score }) => ({ id: snippets.get(c.rowid)?.id ?? c.url, url: c.url, title: c.title, snippet: snippets.get(c.rowid)?.snippet ?? '', score }));
  }
}
