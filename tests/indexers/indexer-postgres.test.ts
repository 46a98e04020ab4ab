import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PostgresIndexWriter } from '../../plugins/indexer-postgres/index.js';
import { toTsQuery } from '../../plugins/indexer-postgres/pg-query.js';
import { findPgBin, startPostgres, type PgServer } from '../helpers/postgres-server.js';
import { doc, writerSuite } from './writer-suite.js';

const skip = findPgBin('initdb') ? undefined : 'initdb (PostgreSQL 15) is not installed; indexer-postgres tests need a real server';
let server: PgServer | null = null;
let tableNo = 0;

before(async () => {
  if (!skip) server = await startPostgres();
});
after(async () => {
  await server?.stop();
});

async function openWriter(table: string, extra: Record<string, string> = {}): Promise<PostgresIndexWriter> {
  const w = new PostgresIndexWriter();
  await w.open({ writerId: 'pg_test', parameters: { url: server!.url, table, ...extra } });
  return w;
}

writerSuite('indexer-postgres', async () => {
  const table = `docs_${++tableNo}`;
  return { open: () => openWriter(table) };
}, skip);

test('indexer-postgres: tsvector column with a GIN index, upserts batched inside one transaction', { skip }, async () => {
  const w = await openWriter('docs_batch', { 'batch.size': '3' });
  for (let i = 0; i < 10; i++) await w.write(doc(`http://b.example/${i}`, `t${i}`, `body${i} common`));
  const c = new pg.Client({ connectionString: server!.url });
  await c.connect();
  try {
    const idx = await c.query(`SELECT indexdef FROM pg_indexes WHERE tablename = 'docs_batch'`);
    assert.ok(idx.rows.some((r: { indexdef: string }) => /USING gin \(tsv\)/.test(r.indexdef)));
    assert.equal((await c.query('SELECT count(*)::int AS n FROM docs_batch')).rows[0].n, 0, 'nothing visible before commit');
    await w.commit();
    assert.equal((await c.query('SELECT count(*)::int AS n FROM docs_batch')).rows[0].n, 10);
    assert.equal((await w.search('common', { limit: 50 })).length, 10);
  } finally {
    await c.end();
    await w.close();
  }
});

test('indexer-postgres: a server that goes away mid-run fails loudly, and nothing is committed', { skip }, async () => {
  const w = await openWriter('docs_gone', { 'batch.size': '2' });
  await w.write(doc('http://g.example/1', 'one', 'x'));
  await w.write(doc('http://g.example/2', 'two', 'y'));
  const c = new pg.Client({ connectionString: server!.url });
  await c.connect();
  await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = 'postgres' AND backend_type = 'client backend'`);
  await assert.rejects(async () => {
    await w.write(doc('http://g.example/3', 'three', 'z'));
    await w.write(doc('http://g.example/4', 'four', 'z'));
    await w.commit();
  });
  await w.abort();
  assert.equal((await c.query('SELECT count(*)::int AS n FROM docs_gone')).rows[0].n, 0);
  await c.end();
});

test('indexer-postgres: bad parameters and an unreachable server name the writer', { skip }, async () => {
  await assert.rejects(new PostgresIndexWriter().open({ writerId: 'w1', parameters: { table: 'x; drop' } }), (e: { code: string; message: string }) => e.code === 'NUTCH_INDEX_WRITERS_INVALID' && /w1/.test(e.message));
  await assert.rejects(new PostgresIndexWriter().open({ writerId: 'w2', parameters: { url: 'postgres://nutch@127.0.0.1:1/postgres', 'connect.timeout': '500' } }), (e: { code: string; message: string }) => e.code === 'NUTCH_INDEX_WRITER_FAILED' && /w2/.test(e.message));
});

test('toTsQuery escapes every tsquery operator', () => {
  assert.equal(toTsQuery('hello world'), "'hello' & 'world'");
  assert.equal(toTsQuery('"quick brown"'), "('quick' <-> 'brown')");
  assert.equal(toTsQuery('qui*'), "'qui':*");
  assert.equal(toTsQuery("it's (a|b) !c"), "'it' & 's' & 'a' & 'b' & 'c'");
  assert.equal(toTsQuery('&|!()'), null);
});

test('index stage with indexer-postgres: the server dropping the connection mid-stage fails the stage naming the writer; nothing committed', { skip }, async (t) => {
  const { indexContext, buildCrawl } = await import('../index/crawl-fixture.js');
  const { index } = await import('../../core/crawl/index/index.js');
  const { tempDir } = await import('../helpers/temp-dir.js');
  const { join } = await import('node:path');
  const ctx = indexContext(t, { writers: [{ id: 'pg_1', extension: 'indexer-postgres', parameters: { url: server!.url, table: 'docs_stage', 'batch.size': '2' } }] }, { 'storage.batch.size': '2' });
  const f = await buildCrawl(ctx, join(tempDir(t), 'crawl'), Array.from({ length: 60 }, (_, i) => ({ url: `http://pg.example/${i}`, text: 'pgword' })));
  const admin = new pg.Client({ connectionString: server!.url });
  await admin.connect();
  t.after(() => admin.end());
  let killed = false;
  await assert.rejects(index(ctx, { crawlDb: f.crawlDb, segments: [f.segment] }, {
    onProgress: (e) => {
      if (e.type === 'progress' && !killed) {
        killed = true;
        void admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'`);
      }
    },
  }), (e: { code: string; message: string }) => {
    assert.equal(e.code, 'NUTCH_INDEX_WRITER_FAILED');
    assert.match(e.message, /pg_1/);
    assert.match(e.message, /not written/);
    return true;
  });
  assert.ok(killed);
  const n = await admin.query(`SELECT count(*)::int AS n FROM docs_stage`);
  assert.equal(n.rows[0].n, 0, 'the run was one transaction: nothing committed');
});
