import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteIndexWriter } from '../../plugins/indexer-sqlite/index.js';
import { toFtsQuery } from '../../plugins/indexer-sqlite/fts-query.js';
import { tempDir } from '../helpers/temp-dir.js';
import { doc, writerSuite } from './writer-suite.js';

writerSuite('indexer-sqlite', async (t) => {
  const crawlDir = tempDir(t as never);
  return {
    open: async () => {
      const w = new SqliteIndexWriter();
      await w.open({ writerId: 'sqlite_test', parameters: {}, crawlDir });
      return w;
    },
  };
});

test('indexer-sqlite stores in <crawl>/index, or the path parameter', async (t) => {
  const crawlDir = tempDir(t);
  const w = new SqliteIndexWriter();
  await w.open({ writerId: 'w', parameters: {}, crawlDir });
  await w.write(doc('http://x.example/', 'x', 'y'));
  await w.close();
  assert.ok(existsSync(join(crawlDir, 'index', 'index.sqlite')));
  const other = join(crawlDir, 'elsewhere');
  const w2 = new SqliteIndexWriter();
  await w2.open({ writerId: 'w', parameters: { path: other }, crawlDir });
  await w2.write(doc('http://x.example/', 'x', 'y'));
  await w2.close();
  assert.ok(existsSync(join(other, 'index.sqlite')));
});

test('indexer-sqlite: search before any index exists says so (NUTCH_INDEX_NOT_FOUND)', async (t) => {
  const w = new SqliteIndexWriter();
  await w.open({ writerId: 'w', parameters: {}, crawlDir: tempDir(t) });
  await assert.rejects(w.search('x', { limit: 3 }), (e: { code: string; message: string }) => e.code === 'NUTCH_INDEX_NOT_FOUND' && /nutch index/.test(e.message));
});

test('indexer-sqlite: bad parameters and no directory are errors naming the writer', async () => {
  await assert.rejects(new SqliteIndexWriter().open({ writerId: 'w1', parameters: {} }), (e: { code: string; message: string }) => e.code === 'NUTCH_INDEX_WRITERS_INVALID' && /w1/.test(e.message));
  await assert.rejects(new SqliteIndexWriter().open({ writerId: 'w2', parameters: { path: '/tmp/x', weights: '1,2' } }), /weights/);
});

test('toFtsQuery escapes every FTS5 operator', () => {
  const cases: [string, string | null][] = [
    ['hello world', '"hello" "world"'],
    ['"exact phrase"', '"exact phrase"'],
    ['pre*', '"pre"*'],
    ['"unbalanced', '"unbalanced"'],
    ['(a OR b)', '"a" "OR" "b"'],
    ['c++', '"c"'],
    ['say "hi"', '"say" "hi"'],
    ['***', null],
    ['', null],
    ['col:value', '"col" "value"'],
    ['über', '"über"'],
  ];
  for (const [q, want] of cases) assert.equal(toFtsQuery(q), want, q);
});

test('indexer-sqlite: a closed writer leaves its write thread waiting for the next writer, of another index too; a writer whose index cannot be opened fails and gives no thread back', async (t) => {
  const { idleIndexWriteThreads } = await import('../../plugins/indexer-sqlite/write-worker.js');
  const a = tempDir(t);
  const b = tempDir(t);
  const first = new SqliteIndexWriter();
  await first.open({ writerId: 'a', parameters: {}, crawlDir: a });
  await first.write(doc('http://a.example/', 'A', 'alphaword'));
  await first.close();
  const parked = idleIndexWriteThreads();
  assert.ok(parked >= 1, 'the closed writer left its thread waiting');
  const second = new SqliteIndexWriter();
  await second.open({ writerId: 'b', parameters: {}, crawlDir: b });
  await second.write(doc('http://b.example/', 'B', 'betaword'));
  await second.commit();
  assert.equal(idleIndexWriteThreads(), parked - 1, 'the next writer took the waiting thread');
  await second.write(doc('http://b.example/3', 'B3', 'deltaword'));
  await second.abort();
  assert.equal(idleIndexWriteThreads(), parked, 'an aborted writer gives its thread back too');
  const third = new SqliteIndexWriter();
  await third.open({ writerId: 'b', parameters: {}, crawlDir: b });
  await third.write(doc('http://b.example/2', 'B2', 'gammaword'));
  await third.close();
  assert.deepEqual(await third.search('deltaword', { limit: 5 }), [], 'the aborted write never reached b');
  assert.equal((await third.search('betaword', { limit: 5 })).length, 1, 'the reused thread wrote b');
  assert.equal((await third.search('gammaword', { limit: 5 })).length, 1);
  assert.deepEqual(await third.search('alphaword', { limit: 5 }), [], 'and nothing of a');
  const reader = new SqliteIndexWriter();
  await reader.open({ writerId: 'a', parameters: {}, crawlDir: a });
  assert.equal((await reader.search('alphaword', { limit: 5 })).length, 1);
  await reader.close();

  const broken = tempDir(t);
  mkdirSync(join(broken, 'index'));
  writeFileSync(join(broken, 'index', 'index.sqlite'), 'this is not a database, it is long enough to have a header '.repeat(20));
  const before = idleIndexWriteThreads();
  const bad = new SqliteIndexWriter();
  await bad.open({ writerId: 'broken', parameters: {}, crawlDir: broken });
  await assert.rejects(async () => {
    await bad.write(doc('http://c.example/', 'C', 'c'));
    await bad.commit();
  }, (e: { code: string; message: string }) => e.code === 'NUTCH_INDEX_WRITER_FAILED' && e.message.includes('broken') && e.message.includes('index.sqlite'));
  await bad.abort();
  assert.ok(idleIndexWriteThreads() <= before, 'the failed writer parked no thread');
});
