import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LookaheadJoin } from '../../core/crawl/index/lookahead-join.js';

async function* stream(urls: string[]) {
  for (const url of urls) yield { url, value: `v:${url}` };
}

function join(part: string[], window: number) {
  const lookups: string[] = [];
  const j = new LookaheadJoin(stream(part)[Symbol.asyncIterator](), async (url) => {
    lookups.push(url);
    return part.includes(url) ? `v:${url}` : undefined;
  }, window);
  return { j, lookups };
}

test('same order: every record matched from the stream, no point lookup', async () => {
  const urls = Array.from({ length: 100 }, (_, i) => `u${i}`);
  const { j, lookups } = join(urls, 10);
  for (const u of urls) assert.equal(await j.take(u), `v:${u}`);
  assert.deepEqual(lookups, []);
});

test('missing records (failed fetches have no parse) are absent without lookups while the window holds', async () => {
  const { j, lookups } = join(['a', 'c'], 10);
  assert.equal(await j.take('a'), 'v:a');
  assert.equal(await j.take('b'), undefined);
  assert.equal(await j.take('c'), 'v:c');
  assert.equal(await j.take('d'), undefined);
  assert.deepEqual(lookups, []);
});

test('any order is correct: beyond the window a point lookup answers, memory stays bounded', async () => {
  const urls = Array.from({ length: 50 }, (_, i) => `u${i}`);
  const { j, lookups } = join(urls, 5);
  const reversed = [...urls].reverse();
  for (const u of reversed) assert.equal(await j.take(u), `v:${u}`);
  assert.ok(lookups.length > 0);
  assert.equal(await j.take('zzz'), undefined);
});

test('find() answers a URL the part most likely lacks without reading ahead, so the stream stays in step', async () => {
  const urls = Array.from({ length: 30 }, (_, i) => `u${i}`);
  const { j, lookups } = join(urls, 5);
  for (let i = 0; i < 30; i++) {
    assert.equal(await j.find(`failed${i}`), undefined, 'a page that was not fetched: one point lookup');
    assert.equal(await j.take(`u${i}`), `v:u${i}`);
  }
  assert.equal(lookups.length, 30, 'only the finds looked up; every take matched from the stream');
  assert.equal(await j.find('u5'), 'v:u5', 'a record that is there is still found');
});
