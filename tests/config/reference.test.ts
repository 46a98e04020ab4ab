/** docs/configuration-reference.md is generated from conf/nutch-default.json + plugins/*\/plugin.json and must be current. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { referencePath, renderConfigReference } from '../../docs/generate-config-reference.js';
import { projectRoot } from '../helpers/temp-dir.js';

test('docs/configuration-reference.md is up to date (regenerate: npm run docs:config)', () => {
  const expected = renderConfigReference();
  const current = readFileSync(referencePath, 'utf8');
  assert.ok(current === expected, 'docs/configuration-reference.md is out of date: run `npm run docs:config` and commit the result');
});

test('the reference lists every declared core property and every unsupported Nutch property', () => {
  const text = renderConfigReference();
  const defaults = JSON.parse(readFileSync(join(projectRoot, 'conf', 'nutch-default.json'), 'utf8'));
  for (const name of Object.keys(defaults.properties)) assert.ok(text.includes(`| \`${name}\` |`), name);
  for (const name of defaults.unsupported ?? []) assert.ok(text.includes(`- \`${name}\``), name);
  for (const name of Object.keys(defaults.patterns ?? {})) assert.ok(text.includes(`| \`${name}\` |`), name);
});

test('every property in conf/nutch-default.json has a type, a description and a default of that type', () => {
  const defaults = JSON.parse(readFileSync(join(projectRoot, 'conf', 'nutch-default.json'), 'utf8'));
  const check: Record<string, (v: unknown) => boolean> = {
    string: (v) => typeof v === 'string', regex: (v) => typeof v === 'string', int: (v) => Number.isInteger(v), float: (v) => typeof v === 'number',
    boolean: (v) => typeof v === 'boolean', strings: (v) => Array.isArray(v), duration: (v) => typeof v === 'string' || typeof v === 'number', json: () => true,
  };
  for (const [name, d] of Object.entries(defaults.properties) as [string, { type: string; default: unknown; description: string }][]) {
    assert.ok(check[d.type], `${name}: unknown type ${d.type}`);
    assert.ok(d.description && d.description.length > 5, `${name}: no description`);
    assert.ok(d.default === null || check[d.type]!(d.default), `${name}: default ${JSON.stringify(d.default)} is not a ${d.type}`);
  }
});
