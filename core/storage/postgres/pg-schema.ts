/**
 * The engine's tables, created and migrated by the engine itself. `nutch_schema` holds the version;
 * MIGRATIONS[i] brings a database from version i to i+1, run under an advisory lock so processes
 * starting at once migrate it once. A database of a newer version than this code knows is refused
 * (NUTCH_STORAGE_SCHEMA_NEWER) rather than misread.
 *
 * Every url column is `COLLATE "C"`: byte order of UTF-8 = code-point order, the URL order every
 * engine's scans follow (url-order.ts). Stores are named by the paths commands are given
 * (nutch_stores, nutch_segments.dir); rows carry the store's or segment's id.
 */
import type pg from 'pg';
import { NutchError } from '../../errors.js';
import { pgGuard } from './pg-errors.js';
import type { PgTarget } from './pg-target.js';

/** A segment part's records (content apart from the rest, so scans of the small parts stay small), in append order per partition. */
function segmentPartTable(name: string): string {
  return `CREATE TABLE ${name} (
  segment integer NOT NULL,
  part smallint NOT NULL,
  partition integer NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  url text COLLATE "C" NOT NULL,
  value bytea NOT NULL,
  PRIMARY KEY (segment, part, partition, seq)
);
CREATE INDEX ${name}_url ON ${name} (segment, part, partition, url);`;
}

export const MIGRATIONS: readonly string[] = [
  `
CREATE TABLE nutch_stores (
  id serial PRIMARY KEY,
  kind text NOT NULL,
  name text COLLATE "C" NOT NULL,
  -- false until the first update session commits (exists() of the interfaces)
  written boolean NOT NULL DEFAULT false,
  UNIQUE (kind, name)
);
CREATE TABLE nutch_crawldb (
  store integer NOT NULL,
  url text COLLATE "C" NOT NULL,
  status smallint NOT NULL,
  fetch_time double precision NOT NULL,
  retries integer NOT NULL,
  fetch_interval double precision NOT NULL,
  score double precision NOT NULL,
  signature bytea,
  modified_time double precision NOT NULL,
  meta text,
  PRIMARY KEY (store, url)
);
CREATE TABLE nutch_linkdb (
  store integer NOT NULL,
  url text COLLATE "C" NOT NULL,
  inlinks bytea NOT NULL,
  PRIMARY KEY (store, url)
);
CREATE TABLE nutch_segments (
  id serial PRIMARY KEY,
  dir text COLLATE "C" NOT NULL,
  name text COLLATE "C" NOT NULL,
  -- written under its final name but invisible to listSegments until published
  staged boolean NOT NULL,
  partition_count integer NOT NULL DEFAULT 0,
  created timestamptz NOT NULL DEFAULT now(),
  UNIQUE (dir, name)
);
CREATE TABLE nutch_segment_partitions (
  segment integer NOT NULL,
  part text NOT NULL,
  partition integer NOT NULL,
  total integer NOT NULL,
  finished boolean NOT NULL DEFAULT false,
  PRIMARY KEY (segment, part, partition)
);
${segmentPartTable('nutch_segment_records')}
${segmentPartTable('nutch_segment_content')}
CREATE TABLE nutch_fetch_partitions (
  segment integer NOT NULL,
  partition integer NOT NULL,
  state text NOT NULL DEFAULT 'pending',
  worker text,
  attempts integer NOT NULL DEFAULT 0,
  lease_expires timestamptz,
  reason text,
  PRIMARY KEY (segment, partition)
);
`,
  // 1 -> 2: attempts stays the fencing token (it only grows); a polite release is counted apart,
  // so it does not count against fetcher.partition.max.attempts and the next claim's token is new
  `ALTER TABLE nutch_fetch_partitions ADD COLUMN released integer NOT NULL DEFAULT 0;`,
  // 2 -> 3: the HostDb (updatehostdb); url holds the host name, as the keyed-store layout names its key
  `
CREATE TABLE nutch_hostdb (
  store integer NOT NULL,
  url text COLLATE "C" NOT NULL,
  score double precision NOT NULL,
  last_check double precision NOT NULL,
  homepage text NOT NULL,
  dns_failures integer NOT NULL,
  connection_failures integer NOT NULL,
  unfetched integer NOT NULL,
  fetched integer NOT NULL,
  not_modified integer NOT NULL,
  redir_temp integer NOT NULL,
  redir_perm integer NOT NULL,
  gone integer NOT NULL,
  meta text,
  PRIMARY KEY (store, url)
);
`,
  // 3 -> 4: a segment's own metadata (Segment.readMeta / writeMeta: how far the crawl loop got with it)
  `ALTER TABLE nutch_segments ADD COLUMN meta jsonb NOT NULL DEFAULT '{}'::jsonb;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The advisory-lock class of this schema's locks (writer locks, migration): a hash of the schema name. */
export function lockClass(schema: string | null): number {
  let h = 0x811c9dc5;
  for (const ch of `nutch-ts:${schema ?? ''}`) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/** Creates or migrates the tables; NUTCH_STORAGE_SCHEMA_NEWER when the database is ahead of this code. */
export async function ensureSchema(pool: pg.Pool, target: PgTarget): Promise<void> {
  await pgGuard({ url: target.redacted }, async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1, 0)', [lockClass(target.schema)]);
      if (target.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${target.schema}"`);
      await client.query('CREATE TABLE IF NOT EXISTS nutch_schema (version integer NOT NULL)');
      const row = (await client.query<{ version: number }>('SELECT version FROM nutch_schema')).rows[0];
      const current = row?.version ?? 0;
      if (current > SCHEMA_VERSION) {
        throw new NutchError(
          'NUTCH_STORAGE_SCHEMA_NEWER',
          `The storage database ${target.redacted}${target.schema ? ` (schema ${target.schema})` : ''} holds nutch-ts schema version ${current}; this nutch-ts knows versions up to ${SCHEMA_VERSION}. Upgrade nutch-ts, or use another database; nothing was changed.`,
          { storageUrl: target.redacted, version: current, known: SCHEMA_VERSION },
        );
      }
      for (let v = current; v < SCHEMA_VERSION; v++) await client.query(MIGRATIONS[v]!);
      if (!row) await client.query('INSERT INTO nutch_schema (version) VALUES ($1)', [SCHEMA_VERSION]);
      else if (current < SCHEMA_VERSION) await client.query('UPDATE nutch_schema SET version = $1', [SCHEMA_VERSION]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  });
}
