/** An embedded index left by a run killed mid-write (SIGKILL) reopens with the last committed state and accepts writes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { SqliteIndexWriter } from '../../plugins/indexer-sqlite/index.js';
import { tempDir } from '../helpers/temp-dir.js';
import { doc } from './writer-suite.js';

test('indexer-sqlite: an index directory from a crashed run keeps its committed documents only', async (t) => {
  const crawlDir = tempDir(t);
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(import.meta.dirname, 'fixtures', 'crash-writer.ts'), crawlDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    out += c;
    if (out.includes('uncommitted')) child.kill('SIGKILL');
  });
  const [, signal] = await once(child, 'exit');
  assert.equal(signal, 'SIGKILL');
  const w = new SqliteIndexWriter();
  await w.open({ writerId: 'after', parameters: {}, crawlDir });
  assert.equal((await w.search('committedword', { limit: 5 })).length, 1);
  assert.deepEqual(await w.search('pendingword', { limit: 5 }), []);
  await w.write(doc('http://next.example/', 'Next', 'nextword'));
  await w.commit();
  assert.equal((await w.search('nextword', { limit: 5 })).length, 1);
  assert.equal(await w.count(), 2);
  await w.close();
});
