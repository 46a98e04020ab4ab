/**
 * ZipArchive.textPieces: a part is decoded while it is inflated, in pieces, never held whole. The
 * pieces must join to exactly the part's text (UTF-8 sequences cut between two pieces included, for
 * deflated and stored entries alike), a bomb still stops while iterating, and an OOXML body much
 * larger than a piece is extracted with every character in place.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strToU8, zipSync } from 'fflate';
import { ZipArchive } from './zip-archive.js';
import { DocumentError } from './document.js';
import { extractOoxml } from './ooxml-extractor.js';
import { buildDocx } from './test-documents.js';

// 1-, 2-, 3- and 4-byte UTF-8 sequences, so piece boundaries fall inside every kind of sequence
const text = Array.from({ length: 15_000 }, (_, i) => `a${i}é€😀`).join(' ');

for (const level of [0, 6] as const) {
  test(`textPieces: a ${level ? 'deflated' : 'stored'} part of ${(strToU8(text).length / 1024).toFixed(0)} KB comes in several pieces that join to its text`, () => {
    const zip = new ZipArchive(zipSync({ 'part.xml': [strToU8(text), { level }] }), { maxExpandedBytes: 64 << 20, maxExpansionRatio: 100 });
    const pieces = [...zip.textPieces('part.xml')!];
    assert.ok(pieces.length >= 3, `${pieces.length} pieces`);
    assert.ok(pieces.every((p) => !p.includes('\ufffd')), 'no sequence is broken at a piece boundary');
    assert.equal(pieces.join(''), text);
    assert.equal(zip.readText('part.xml'), text);
    assert.equal(zip.textPieces('missing.xml'), null);
  });
}

test('textPieces: a part expanding past the budget fails while iterating, after the pieces within it', () => {
  const zip = new ZipArchive(zipSync({ 'bomb.xml': [new Uint8Array(8 << 20), { level: 9 }] }), { maxExpandedBytes: 1 << 20, maxExpansionRatio: -1 });
  const seen: number[] = [];
  assert.throws(() => {
    for (const piece of zip.textPieces('bomb.xml')!) seen.push(piece.length);
  }, (err: unknown) => err instanceof DocumentError && err.failure === 'bomb' && /tika\.zip\.max\.bytes while reading bomb\.xml/.test(err.message));
  assert.ok(seen.length > 0 && seen.reduce((a, b) => a + b, 0) <= 1 << 20, `read ${seen.length} pieces within the budget first`);
});

test('tika.zip.max.ratio: a part expanding 1000:1 fails once past 1 MiB, long before tika.zip.max.bytes; -1 reads it to the byte budget', () => {
  const bomb = zipSync({ 'bomb.xml': [new Uint8Array(8 << 20), { level: 9 }] });
  let read = 0;
  assert.throws(() => {
    for (const piece of new ZipArchive(bomb, { maxExpandedBytes: 64 << 20, maxExpansionRatio: 100 }).textPieces('bomb.xml')!) read += piece.length;
  }, (err: unknown) => err instanceof DocumentError && err.failure === 'bomb' && /more than tika\.zip\.max\.ratio \(100\) times its compressed bytes while reading bomb\.xml/.test(err.message));
  assert.ok(read <= 2 << 20, `stopped after ${read} bytes, within a step of the 1 MiB threshold`);
  // without the ratio check the same part reads whole (8 MiB within the 64 MiB budget)
  let whole = 0;
  for (const piece of new ZipArchive(bomb, { maxExpandedBytes: 64 << 20, maxExpansionRatio: -1 }).textPieces('bomb.xml')!) whole += piece.length;
  assert.equal(whole, 8 << 20);
});

test('tika.zip.max.ratio: a stored (uncompressed) part of several MiB is read whole (ratio 1)', () => {
  const body = new Uint8Array(3 << 20).fill(0x61);
  assert.equal(new ZipArchive(zipSync({ 'big.xml': [body, { level: 0 }] }), { maxExpandedBytes: 64 << 20, maxExpansionRatio: 100 }).readText('big.xml')!.length, 3 << 20);
});

test('a DOCX body many pieces long is extracted whole, every paragraph in order', () => {
  const body = Array.from({ length: 6_000 }, (_, i) => `paragraph ${i} ÆØÅ 中文 😀 end${i}`);
  const doc = extractOoxml(buildDocx({ title: 'long', body, links: [] }), 'docx', { maxTextChars: 10 << 20, maxExpandedBytes: 64 << 20, maxExpansionRatio: 100, maxPdfDecodedBytes: 128 << 20 });
  assert.equal(doc.text, body.join('\n'));
});
