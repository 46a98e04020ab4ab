/** The external sort's scratch file: every value type, rows larger than a read page, nothing left on disk. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SpillFile } from '../../core/storage/spill-file.js';
import { ExternalSort, type SortRow } from '../../core/storage/external-sort.js';

/** Every row of a reader: next() hands out what its page holds, and none only at the end. */
function drain(reader: ReturnType<SpillFile['reader']>): SortRow[] {
  const out: SortRow[] = [];
  for (let rows = reader.next(10); rows.length > 0; rows = reader.next(10)) out.push(...rows);
  return out;
}

test('spilled rows come back as written: strings (non-ASCII too), numbers, null, bytes, and rows larger than a page or a write chunk', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nutch-spill-test-'));
  try {
    const file = new SpillFile(dir);
    assert.deepEqual(fs.readdirSync(dir), [], 'the file is unlinked while open');
    const big = 'x'.repeat(1_500_000); // longer than the 1 MB write chunk
    const rows: SortRow[] = [
      ['http://a.example/é/\u{1F600}', 'anchor ü', 3, -0.25, null, Buffer.from([1, 2, 3])],
      ['http://b.example/', '', 0, Number.MAX_SAFE_INTEGER, new Uint8Array(0), 'tail'],
      ['http://c.example/big', big, 1e-300, null, new Uint8Array(70_000).fill(7), null],
    ];
    const first = file.writeRows(rows.slice(0, 2));
    const second = file.writeRows(rows.slice(2));
    assert.equal(first.end, second.start);
    // pages of 64 bytes: every row spans several refills
    const back = [...drain(file.reader(first.start, first.end, 64)), ...drain(file.reader(second.start, second.end, 64))];
    assert.equal(back.length, 3);
    const expected = rows.map((r) => r.map((v) => (v instanceof Uint8Array ? Buffer.from(v) : v)));
    assert.deepEqual(back, expected);
    // bytes are copies: reading on does not change a value handed out
    assert.ok(Buffer.isBuffer(back[0]![5]));
    file.close();
    assert.deepEqual(fs.readdirSync(dir), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a reader hands out at most the rows asked for, then the rest, then none', () => {
  const file = new SpillFile();
  const rows: SortRow[] = Array.from({ length: 10 }, (_, i) => [`k${i}`, i]);
  const { start, end } = file.writeRows(rows);
  const reader = file.reader(start, end, 32);
  const a = reader.next(4);
  assert.ok(a.length > 0 && a.length <= 4);
  assert.deepEqual([...a, ...drain(reader)], rows);
  assert.deepEqual(reader.next(4), []);
  file.close();
});

test('ExternalSort spills payloads of every type and merges them back in key order', () => {
  const sort = new ExternalSort({ columns: 3, runSize: 5, memoryRows: 0, pageSize: 2 });
  const rows: SortRow[] = [];
  for (let i = 0; i < 200; i++) {
    const row: SortRow = [`http://h${i % 7}.example/${(i * 7919) % 101}`, i, i % 3 === 0 ? null : `from ${i}`, Buffer.from([i & 255, i >> 8])];
    rows.push(row);
    sort.add(row);
  }
  const out = [...sort.sorted()];
  sort.close();
  const expected = rows.map((r, i) => ({ r, i })).sort((x, y) => (x.r[0] < y.r[0] ? -1 : x.r[0] > y.r[0] ? 1 : x.i - y.i)).map((x) => x.r);
  assert.deepEqual(out, expected);
});

test('a value of an unsupported type is refused with a message naming its column', () => {
  const file = new SpillFile();
  assert.throws(() => file.writeRows([['k', 1, true]]), /column 2 is a boolean/);
  file.close();
});
