/**
 * docs/migrating-from-nutch.md's plugin tables are true to plugins/: every built-in plugin has a row
 * saying it is available (the fetch schedules and signatures, core classes in Nutch, are named in the
 * row that says what replaced them), and no row calls a plugin available that does not exist.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../helpers/temp-dir.js';

const builtIns = readdirSync(join(projectRoot, 'plugins'))
  .filter((d) => existsSync(join(projectRoot, 'plugins', d, 'plugin.json')))
  .map((d) => (JSON.parse(readFileSync(join(projectRoot, 'plugins', d, 'plugin.json'), 'utf8')) as { id: string }).id);
const doc = readFileSync(join(projectRoot, 'docs', 'migrating-from-nutch.md'), 'utf8');
const rows = [...doc.matchAll(/^\| ([^|]+) \| ([a-z -]+) \| (.*)\|$/gm)].map((m) => ({
  ids: [...m[1]!.matchAll(/`([a-z0-9-]+)`/g)].map((x) => x[1]!),
  status: m[2]!.trim(),
  notes: m[3]!,
}));

test('docs/migrating-from-nutch.md: every built-in plugin has a row saying it is available', () => {
  const available = new Set(rows.filter((r) => r.status === 'available').flatMap((r) => r.ids));
  const coreClasses = rows.find((r) => r.status === 'replaced' && r.notes.includes('schedule-default'));
  assert.ok(builtIns.length > 40, `${builtIns.length} built-in plugins found`);
  for (const id of builtIns) {
    const named = available.has(id) || (/^(schedule|signature)-/.test(id) && !!coreClasses?.notes.includes(id));
    assert.ok(named, `${id} has no "available" row in docs/migrating-from-nutch.md`);
  }
});

test('docs/migrating-from-nutch.md: no row calls a plugin available that plugins/ does not have', () => {
  const ids = new Set(builtIns);
  const plugins = rows.filter((r) => r.status === 'available' && r.ids.some((i) => /^(protocol|parse|index|indexer|scoring|urlfilter|urlnormalizer|lib)-/.test(i) || ids.has(i)));
  for (const r of plugins) for (const id of r.ids) assert.ok(ids.has(id), `docs/migrating-from-nutch.md says ${id} is available; plugins/ has no such plugin`);
});
