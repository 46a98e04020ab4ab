/**
 * The manifest and index-writers.json validators are ajv standalone modules generated from their
 * schemas (core/plugin/generate-schema-validators.ts); they must match the schemas as they are now,
 * and reject what the schemas reject with ajv's own errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { generateValidator, schemaValidators, staleValidators } from '../../core/plugin/generate-schema-validators.js';
import { validate as manifestValidate } from '../../core/plugin/manifest-validator.generated.js';
import { validate as indexWritersValidate } from '../../core/crawl/index/index-writers-validator.generated.js';
import { projectRoot } from '../helpers/temp-dir.js';

test('the generated validator modules are up to date with their schemas (regenerate: npm run schemas)', () => {
  assert.deepEqual(staleValidators().map((v) => v.module), [], 'run `npm run schemas` and commit the result');
  for (const v of schemaValidators) assert.ok(generateValidator(v).includes('export const validate'), v.module);
});

const cases: { schema: string; validate: ValidateFunction; verbose: boolean; inputs: unknown[] }[] = [
  {
    schema: 'core/plugin/manifest.schema.json',
    validate: manifestValidate as ValidateFunction,
    verbose: true,
    inputs: [
      { id: 'p', extensions: [] },
      { id: 'p', extensions: [{ id: 'x', point: 'URLFilter', implementation: 'X', parameters: { a: 'b' } }], config: { 'p.x': { type: 'int', default: 1, description: 'd' } } },
      { extensions: [{ id: 'x', point: '', implementation: 'X' }] },
      { id: 'bad id!', extensions: [], colour: 'red' },
      { id: 'p', extensions: [{ id: 'x', point: 'URLFilter' }], requires: ['a', 'a'], config: { 'p.y': { type: 'number', description: 'd' } } },
      { id: 'p', extensions: 'none' },
      'not an object',
    ],
  },
  {
    schema: 'core/crawl/index/index-writers.schema.json',
    validate: indexWritersValidate as ValidateFunction,
    verbose: false,
    inputs: [
      { writers: [{ id: 'w', extension: 'indexer-sqlite', parameters: { path: 'x', n: 3 }, mapping: { copy: [{ source: 'a', dest: ['b'] }], rename: ['c'], remove: ['d'] } }] },
      { writers: [{ id: '' }] },
      { writers: [{ id: 'w', mapping: { copy: [{ source: 'a', dest: [] }], move: [] } }] },
      { writer: [] },
    ],
  },
];

for (const c of cases) {
  test(`${c.schema}: the generated validator answers as ajv compiling the schema does, errors included`, () => {
    const schema = JSON.parse(readFileSync(join(projectRoot, c.schema), 'utf8'));
    const compiled = new Ajv({ allErrors: true, strict: false, verbose: c.verbose }).compile(schema);
    let rejected = 0;
    for (const input of c.inputs) {
      const ok = c.validate(input);
      assert.equal(ok, compiled(input), JSON.stringify(input));
      assert.deepEqual(
        (c.validate.errors ?? []).map((e) => [e.instancePath, e.keyword, e.message, e.params]),
        (compiled.errors ?? []).map((e) => [e.instancePath, e.keyword, e.message, e.params]),
        JSON.stringify(input),
      );
      if (!ok) rejected++;
    }
    assert.ok(rejected >= 3, 'the cases include invalid documents');
  });
}
