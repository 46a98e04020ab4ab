/** The error catalogue and docs/errors.md stay in sync: every code has a `## CODE` section and vice versa. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCodes, NutchError, isNutchError } from '../core/errors.js';
import { projectRoot } from './helpers/temp-dir.js';

const doc = readFileSync(join(projectRoot, 'docs', 'errors.md'), 'utf8');
const documented = [...doc.matchAll(/^## (\S+)\s*$/gm)].map((m) => m[1]!);
const codes = Object.keys(ErrorCodes);

test('every code in core/errors.ts has a ## section in docs/errors.md', () => {
  assert.deepEqual(codes.filter((c) => !documented.includes(c)), []);
});

test('every ## section in docs/errors.md is a code in core/errors.ts', () => {
  assert.deepEqual(documented.filter((c) => !codes.includes(c)), []);
});

test('each documented code has a paragraph, and no code is documented twice', () => {
  const sections = doc.split(/^## /m).slice(1);
  for (const s of sections) {
    const [heading, ...body] = s.split('\n');
    assert.ok(body.join('\n').trim().length > 10, `## ${heading} has no explanation`);
  }
  assert.equal(new Set(documented).size, documented.length);
});

test('codes are NUTCH_ names with a summary; isNutchError tests the code, not the class', () => {
  for (const [code, summary] of Object.entries(ErrorCodes)) {
    assert.match(code, /^NUTCH_[A-Z_]+$/);
    assert.ok(summary.length > 10, code);
  }
  const err = new NutchError('NUTCH_USAGE', 'bad', { property: 'x' });
  assert.equal(isNutchError(err, 'NUTCH_USAGE'), true);
  assert.equal(isNutchError({ code: 'NUTCH_USAGE', message: 'from another package copy' }, 'NUTCH_USAGE'), true);
  assert.equal(isNutchError(new Error('plain')), false);
});
