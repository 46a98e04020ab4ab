import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
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
