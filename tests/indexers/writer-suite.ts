/**
 * The contract every searchable IndexWriter passes (indexer-sqlite, indexer-postgres): upsert by id,
 * delete by id, commit makes changes visible, abort rolls them back, ranked search with snippets,
 * FTS syntax in queries never crashes, odd input (huge text, lone surrogates, odd field names).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IndexWriter } from '../../core/extension-points/index-writer.js';
import { createDocument, type NutchDocument } from '../../core/model/nutch-document.js';

export function doc(id: string, title: string, content: string, extra: Record<string, string[]> = {}): NutchDocument {
  const d = createDocument();
  d.fields = { id: [id], url: [id], title: [title], content: [content], ...extra };
  return d;
}

/** `open` returns a fresh, opened writer over the SAME store each time it is called within one test. */
export function writerSuite(name: string, setup: (t: { after(fn: () => unknown): void }) => Promise<{ open: () => Promise<IndexWriter> }>, skip?: string): void {
  const t2 = (title: string, fn: (t: { after(fn: () => unknown): void }) => Promise<void>) => test(`${name}: ${title}`, { skip }, fn);

  t2('writes, commits and finds documents ranked by relevance with a snippet', async (t) => {
    const { open } = await setup(t);
    const w = await open();
    await w.write(doc('http://a.example/', 'Apple orchards', 'apples grow on trees in the orchard; apple apple apple'));
    await w.write(doc('http://b.example/', 'Bananas', 'bananas are yellow; one apple is mentioned here'));
    await w.write(doc('http://c.example/', 'Cherries', 'nothing about the other fruit'));
    await w.commit();
    const hits = await w.search!('apple', { limit: 10 });
    assert.deepEqual(hits.map((h) => h.url), ['http://a.example/', 'http://b.example/']);
    assert.equal(hits[0]!.title, 'Apple orchards');
    assert.ok(hits[0]!.score > hits[1]!.score, 'higher score first');
    assert.match(hits[0]!.snippet, /apple/i);
    assert.equal((await w.search!('apple', { limit: 1 })).length, 1, 'limit honoured');
    assert.deepEqual(await w.search!('zzzzunknown', { limit: 10 }), []);
    await w.close();
  });

  t2('upserts by id and deletes by id', async (t) => {
    const { open } = await setup(t);
    const w = await open();
    await w.write(doc('http://a.example/', 'Old title', 'oldword'));
    await w.commit();
    await w.write(doc('http://a.example/', 'New title', 'newword'));
    await w.commit();
    assert.deepEqual(await w.search!('oldword', { limit: 5 }), []);
    const hits = await w.search!('newword', { limit: 5 });
    assert.equal(hits.length, 1);
    assert.equal(hits[0]!.title, 'New title');
    await w.delete('http://a.example/');
    await w.delete('http://never-indexed.example/');
    await w.commit();
    assert.deepEqual(await w.search!('newword', { limit: 5 }), []);
    await w.close();
  });

  t2('a phrase query matches the phrase only; prefix queries work', async (t) => {
    const { open } = await setup(t);
    const w = await open();
    await w.write(doc('http://p1.example/', 'one', 'the quick brown fox'));
    await w.write(doc('http://p2.example/', 'two', 'brown quick the fox'));
    await w.commit();
    assert.deepEqual((await w.search!('"quick brown"', { limit: 5 })).map((h) => h.url), ['http://p1.example/']);
    assert.equal((await w.search!('qui*', { limit: 5 })).length, 2);
    await w.close();
  });

  t2('FTS syntax characters in queries never crash', async (t) => {
    const { open } = await setup(t);
    const w = await open();
    await w.write(doc('http://q.example/', 'Query', 'plain words and c++ code (with parens)'));
    await w.commit();
    for (const q of ['"unbalanced', '(parens', 'a)b(', '*', 'NOT', 'AND OR', 'title:words', '^words', '-words', '""', "'", 'NEAR(words code)', '\\', '\u0000', '\uD800']) {
      const hits = await w.search!(q, { limit: 5 });
      assert.ok(Array.isArray(hits), q);
    }
    assert.equal((await w.search!('(words', { limit: 5 })).length, 1, 'parens are text');
    assert.equal((await w.search!('"words', { limit: 5 })).length, 1, 'an unbalanced quote is text');
    await w.close();
  });

  t2('abort rolls back what was written since the last commit', async (t) => {
    const { open } = await setup(t);
    const w = await open();
    await w.write(doc('http://kept.example/', 'Kept', 'keptword'));
    await w.commit();
    await w.write(doc('http://lost.example/', 'Lost', 'lostword'));
    await w.delete('http://kept.example/');
    await w.abort!();
    const r = await open();
    assert.deepEqual(await r.search!('lostword', { limit: 5 }), []);
    assert.equal((await r.search!('keptword', { limit: 5 })).length, 1);
    await r.close();
  });

  t2('huge content, lone surrogates and odd field names are stored', async (t) => {
    const { open } = await setup(t);
    const w = await open();
    const huge = 'needle '.repeat(10) + 'lorem ipsum '.repeat(200_000);
    await w.write(doc('http://huge.example/', 'Huge', huge));
    await w.write(doc('http://sur.example/', 'Bad \uD800 title', 'text with \uDC00 lone surrogate surrogateword', { 'odd field/näme "x"': ['v'], '': ['empty name'] }));
    await w.commit();
    assert.equal((await w.search!('needle', { limit: 5 }))[0]?.url, 'http://huge.example/');
    assert.equal((await w.search!('surrogateword', { limit: 5 }))[0]?.url, 'http://sur.example/');
    await w.close();
  });
}
