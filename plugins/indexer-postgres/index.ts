/**
 * indexer-postgres: PostgreSQL full-text search. One table (parameter `table`, default
 * nutch_documents) with a weighted tsvector column (title A, anchor B, url C, content D) and a GIN
 * index; documents are upserted by id (INSERT … ON CONFLICT) and deleted by id, in batches of
 * `batch.size`, all inside one transaction per run: commit() makes them visible, abort() rolls back.
 * Connection: `url` (postgres://…) or host/port/user/password/database. Search ranks with
 * ts_rank_cd and builds snippets with ts_headline.
 */
import pg from 'pg';
import { NutchError, type IndexWriter, type IndexWriterParams, type NutchDocument, type SearchHit } from '../../sdk/plugin.js';
import { toTsQuery } from './pg-query.js';

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const BAD_TEXT = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/g;

/** PostgreSQL text cannot hold NUL nor lone surrogates. */
function clean(s: string): string {
  BAD_TEXT.lastIndex = 0;
  return BAD_TEXT.test(s) ? s.replace(BAD_TEXT, (c) => (c === '\u0000' ? '' : '\uFFFD')) : s;
}

function text(values: unknown[] | undefined, sep: string): string {
  return (values ?? []).map((v) => clean(v instanceof Date ? v.toISOString() : String(v))).join(sep);
}

interface Row {
  id: string;
  url: string;
  title: string;
  content: string;
  anchor: string;
  fields: string;
  boost: number;
}

export class PostgresIndexWriter implements IndexWriter {
  private client: pg.Client | null = null;
  private writerId = 'indexer-postgres';
  private table = 'nutch_documents';
  private tsConfig = 'simple';
  private batchSize = 500;
  private maxTsChars = 200_000;
  /** Pending actions, last one per id wins. */
  private pending = new Map<string, Row | null>();
  private inTransaction = false;

  private invalid(message: string): NutchError {
    return new NutchError('NUTCH_INDEX_WRITERS_INVALID', `indexer-postgres writer ${this.writerId}: ${message}`, { writer: this.writerId });
  }

  async open(params: IndexWriterParams): Promise<void> {
    this.writerId = params.writerId;
    const p = params.parameters;
    this.table = p.table ?? this.table;
    this.tsConfig = p['ts.config'] ?? this.tsConfig;
    if (!IDENT.test(this.table)) throw this.invalid(`parameter "table" must be a plain SQL identifier, got "${this.table}".`);
    if (!IDENT.test(this.tsConfig)) throw this.invalid(`parameter "ts.config" must be a text search configuration name, got "${this.tsConfig}".`);
    if (p['batch.size'] !== undefined) this.batchSize = Number(p['batch.size']);
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1) throw this.invalid(`parameter "batch.size" must be a positive integer, got "${p['batch.size']}".`);
    if (p['max.tsvector.chars'] !== undefined) this.maxTsChars = Number(p['max.tsvector.chars']);
    const config: pg.ClientConfig = p.url
      ? { connectionString: p.url }
      : { host: p.host ?? '127.0.0.1', port: p.port ? Number(p.port) : 5432, user: p.user, password: p.password, database: p.database };
    const client = new pg.Client({ ...config, connectionTimeoutMillis: Number(p['connect.timeout'] ?? 10_000) });
    client.on('error', () => { /* surfaced by the next query */ });
    try {
      await client.connect();
    } catch (err) {
      throw new NutchError('NUTCH_INDEX_WRITER_FAILED', `indexer-postgres writer ${this.writerId}: cannot connect to PostgreSQL (${p.url ? p.url.replace(/:[^:@/]*@/, ':***@') : `${config.host}:${config.port}`}): ${(err as Error).message}`, { writer: this.writerId }, { cause: err });
    }
    this.client = client;
    await client.query(`CREATE TABLE IF NOT EXISTS ${this.table} (
      id TEXT PRIMARY KEY, url TEXT NOT NULL, title TEXT NOT NULL, content TEXT NOT NULL, anchor TEXT NOT NULL,
      fields JSONB NOT NULL, boost REAL NOT NULL, tsv TSVECTOR NOT NULL)`);
    await client.query(`CREATE INDEX IF NOT EXISTS ${this.table}_tsv ON ${this.table} USING GIN (tsv)`);
  }

  private get db(): pg.Client {
    if (!this.client) throw new NutchError('NUTCH_INDEX_WRITER_FAILED', `indexer-postgres writer ${this.writerId}: used after close.`, { writer: this.writerId });
    return this.client;
  }

  async write(doc: NutchDocument): Promise<void> {
    const id = text(doc.fields.id, '') || text(doc.fields.url, '');
    if (!id) throw new NutchError('NUTCH_INDEX_WRITER_FAILED', `indexer-postgres writer ${this.writerId}: document has no "id" field.`, { writer: this.writerId });
    const stored: Record<string, unknown[]> = {};
    for (const [k, v] of Object.entries(doc.fields)) if (k !== 'content') stored[clean(k)] = v.map((x) => (typeof x === 'string' ? clean(x) : x));
    this.pending.delete(id);
    this.pending.set(id, {
      id, url: text(doc.fields.url, ' ') || id, title: text(doc.fields.title, ' '), content: text(doc.fields.content, ' '),
      anchor: text(doc.fields.anchor, '\n'), fields: JSON.stringify(stored), boost: Number.isFinite(doc.weight) ? doc.weight : 1,
    });
    if (this.pending.size >= this.batchSize) await this.flush();
  }

  async update(doc: NutchDocument): Promise<void> {
    return this.write(doc);
  }

  async delete(key: string): Promise<void> {
    this.pending.delete(key);
    this.pending.set(clean(key), null);
    if (this.pending.size >= this.batchSize) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const db = this.db;
    if (!this.inTransaction) {
      await db.query('BEGIN');
      this.inTransaction = true;
    }
    const deletes: string[] = [];
    const rows: Row[] = [];
    for (const [id, row] of this.pending) if (row) rows.push(row); else deletes.push(id);
    this.pending = new Map();
    if (deletes.length) await db.query(`DELETE FROM ${this.table} WHERE id = ANY($1)`, [deletes]);
    if (rows.length) {
      const values: unknown[] = [this.tsConfig, this.maxTsChars];
      const tuples = rows.map((r) => {
        const b = values.length;
        values.push(r.id, r.url, r.title, r.content, r.anchor, r.fields, r.boost);
        const ts = (n: number, w: string) => `setweight(to_tsvector($1::regconfig, left($${b + n}, $2)), '${w}')`;
        return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}::jsonb, $${b + 7}, ${ts(3, 'A')} || ${ts(5, 'B')} || ${ts(2, 'C')} || ${ts(4, 'D')})`;
      });
      await db.query(
        `INSERT INTO ${this.table} (id, url, title, content, anchor, fields, boost, tsv) VALUES ${tuples.join(', ')}
         ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, title = EXCLUDED.title, content = EXCLUDED.content,
           anchor = EXCLUDED.anchor, fields = EXCLUDED.fields, boost = EXCLUDED.boost, tsv = EXCLUDED.tsv`,
        values,
      );
    }
  }

  async commit(): Promise<void> {
    await this.flush();
    if (this.inTransaction) {
      await this.db.query('COMMIT');
      this.inTransaction = false;
    }
  }

  /** Closing keeps what was written, as indexer-sqlite does. */
  async close(): Promise<void> {
    if (!this.client) return;
    await this.commit();
    await this.client.end();
    this.client = null;
  }

  async abort(): Promise<void> {
    this.pending = new Map();
    if (!this.client) return;
    try {
      // A lost connection rolled the transaction back already.
      if (this.inTransaction) await this.client.query('ROLLBACK').catch(() => undefined);
    } finally {
      this.inTransaction = false;
      await this.client.end().catch(() => undefined);
      this.client = null;
    }
  }

  async search(query: string, opts: { limit: number }): Promise<SearchHit[]> {
    const q = toTsQuery(clean(query));
    if (!q || opts.limit <= 0) return [];
    const res = await this.db.query(
      `SELECT id, url, title,
              ts_headline($1::regconfig, left(content, 100000), q, 'StartSel=<b>, StopSel=</b>, MaxWords=30, MinWords=10') AS snippet,
              ts_rank_cd(tsv, q) * boost AS score
         FROM ${this.table}, to_tsquery($1::regconfig, $2) q
        WHERE tsv @@ q ORDER BY score DESC, id LIMIT $3`,
      [this.tsConfig, q, Math.floor(opts.limit)],
    );
    return res.rows.map((r: { id: string; url: string; title: string; snippet: string; score: number }) => ({ id: r.id, url: r.url, title: r.title, snippet: r.snippet, score: Number(r.score) }));
  }
}
