/** ExternalSort: many runs merged in the stores' (code point) order, stable for equal keys. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExternalSort } from '../../core/storage/external-sort.js';
import { compareUrls } from '../../core/storage/url-order.js';

test('compareUrls orders by code point, as SQLite BINARY does (not by UTF-16 unit)', () => {
  const astral = 'http://x/\u{1F600}'; // surrogate pair D83D DE00
  const bmpHigh = 'http://x/\uFF01';
  assert.ok(bmpHigh < astral === false, 'JavaScript < puts the surrogate first');
  assert.equal(compareUrls(bmpHigh, astral), -1);
  assert.equal(compareUrls('http://a', 'http://b'), -1);
  assert.equal(compareUrls('http://a', 'http://a/'), -1);
  assert.equal(compareUrls('same', 'same'), 0);
});

for (const [runSize, memoryRows] of [[1, 0], [7, 20], [7, 100_000], [100, 0], [100_000, 0]] as const) {
  test(`ExternalSort merges runs of ${runSize} (${memoryRows} rows kept in memory, the rest spilled) into one sorted, stable stream`, () => {
    const sort = new ExternalSort({ columns: 1, runSize, pageSize: 3, memoryRows });
    const keys: string[] = [];
    for (let i = 0; i < 500; i++) {
      const key = `http://h${(i * 37) % 11}.example/${(i * 7919) % 97}`;
      keys.push(key);
      sort.add([key, i]);
    }
    const native = [...keys].sort();
    if (runSize === 7 && memoryRows === 20) {
      // all-ASCII keys: the decorated native sort path, checked against a plain sort of the keys
      const plain = new ExternalSort({ columns: 1, runSize, memoryRows });
      keys.forEach((k, i) => plain.add([k, i]));
      assert.deepEqual([...plain.sorted()].map((r) => r[0]), native);
      plain.close();
    }
    sort.add(['http://x/\u{1F600}', 1000]);
    sort.add(['http://x/\uFF01', 1001]);
    const out = [...sort.sorted()];
    sort.close();
    assert.equal(out.length, 502);
    for (let i = 1; i < out.length; i++) {
      const c = compareUrls(out[i - 1]![0], out[i]![0]);
      assert.ok(c < 0 || (c === 0 && (out[i - 1]![1] as number) < (out[i]![1] as number)), `order at ${i}: ${out[i - 1]} / ${out[i]}`);
    }
    assert.deepEqual(out.slice(-2).map((r) => r[1]), [1001, 1000]);
  });
}
