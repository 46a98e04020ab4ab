import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonlIndexWriter } from '../../plugins/indexer-jsonl/index.js';
import { CSVIndexWriter } from '../../plugins/indexer-csv/index.js';
import { DummyIndexWriter } from '../../plugins/indexer-dummy/index.js';
import { tempDir } from '../helpers/temp-dir.js';
import { doc } from './writer-suite.js';

test('indexer-jsonl: one JSON object per action, appended on commit', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'out.jsonl');
  writeFileSync(path, '{"action":"add","id":"previous"}\n');
  const w = new JsonlIndexWriter();
  await w.open({ writerId: 'j', parameters: { path } });
  await w.write(doc('http://a/', 'A', 'x\ny "q" \uD800'));
  await w.delete('http://b/');
  assert.equal(readFileSync(path, 'utf8').split('\n').length, 2, 'nothing reaches the file before commit');
  await w.commit();
  const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.action, l.id]), [['add', 'previous'], ['add', 'http://a/'], ['delete', 'http://b/']]);
  assert.deepEqual(lines[1].fields.title, ['A']);
  await w.close();
  assert.deepEqual(readdirSync(dir), ['out.jsonl'], 'no spool file left');
});

test('indexer-jsonl: abort leaves the file as it was; mode=overwrite replaces it on commit', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'out.jsonl');
  writeFileSync(path, 'old\n');
  const w = new JsonlIndexWriter();
  await w.open({ writerId: 'j', parameters: { path } });
  await w.write(doc('http://a/', 'A', 'x'));
  await w.abort();
  assert.equal(readFileSync(path, 'utf8'), 'old\n');
  const o = new JsonlIndexWriter();
  await o.open({ writerId: 'j', parameters: { path, mode: 'overwrite' } });
  await o.write(doc('http://a/', 'A', 'x'));
  await o.close();
  assert.equal(JSON.parse(readFileSync(path, 'utf8')).id, 'http://a/');
  await assert.rejects(new JsonlIndexWriter().open({ writerId: 'j2', parameters: { path, mode: 'sideways' } }), /j2.*mode/);
});

test('indexer-csv: Nutch CSVIndexWriter columns, quoting, value separator and length limits; deletes ignored', async (t) => {
  const dir = tempDir(t);
  const w = new CSVIndexWriter();
  await w.open({ writerId: 'c', parameters: { fields: 'id,title,anchor', maxfieldlength: '20', maxfieldvalues: '2' }, crawlDir: dir });
  const d = doc('http://a/', 'Hello, "world"', 'x', { anchor: ['one', 'two', 'three'] });
  await w.write(d);
  await w.delete('http://a/');
  await w.write(doc('id2', 'y'.repeat(30), 'x'));
  await w.commit();
  await w.close();
  const csv = readFileSync(join(dir, 'csvindexwriter', 'nutch.csv'), 'utf8');
  assert.equal(csv, `id,title,anchor\r\nhttp://a/,"Hello, ""world""",one|two\r\nid2,${'y'.repeat(20)},\r\n`);
});

test('indexer-csv: a failed run (abort) keeps the previous file', async (t) => {
  const dir = tempDir(t);
  const out = join(dir, 'csv');
  const w = new CSVIndexWriter();
  await w.open({ writerId: 'c', parameters: { outpath: out } });
  await w.write(doc('a', 'first', 'x'));
  await w.close();
  const w2 = new CSVIndexWriter();
  await w2.open({ writerId: 'c', parameters: { outpath: out } });
  await w2.write(doc('b', 'second', 'x'));
  await w2.abort();
  assert.match(readFileSync(join(out, 'nutch.csv'), 'utf8'), /first/);
  assert.equal(readdirSync(out).length, 1);
});

test('indexer-dummy: add/update lines, delete lines only with delete=true, as Nutch', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'dummy.txt');
  for (const del of ['false', 'true']) {
    const w = new DummyIndexWriter();
    await w.open({ writerId: 'd', parameters: { path, delete: del } });
    await w.write(doc('http://a/', 'A', 'x'));
    await w.update(doc('http://b/', 'B', 'x'));
    await w.delete('http://c/');
    await w.close();
    assert.equal(readFileSync(path, 'utf8'), `add\thttp://a/\nupdate\thttp://b/\n${del === 'true' ? 'delete\thttp://c/\n' : ''}`);
  }
  assert.ok(existsSync(path));
});
