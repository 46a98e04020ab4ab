/**
 * bin/nutch commands nutch-ts does not build answer "not available in nutch-ts" with advice, and
 * docs/migrating-from-nutch.md's command table agrees with what the CLI really has.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNutch, spawnNutch } from '../helpers/cli.js';
import { projectRoot, tempDir } from '../helpers/temp-dir.js';
import { commands } from '../../sdk/cli/commands.js';
import { unavailableCommands } from '../../sdk/cli/unavailable-commands.js';

// Nutch 1.x's bin/nutch usage, in its order
const NUTCH_COMMANDS = ['readdb', 'mergedb', 'readlinkdb', 'inject', 'generate', 'freegen', 'fetch', 'parse', 'readseg', 'mergesegs',
  'updatedb', 'invertlinks', 'mergelinkdb', 'index', 'dedup', 'dedupredirects', 'dump', 'commoncrawldump', 'solrindex', 'solrdedup',
  'solrclean', 'clean', 'parsechecker', 'indexchecker', 'filterchecker', 'normalizerchecker', 'domainstats', 'protocolstats',
  'crawlcomplete', 'webgraph', 'linkrank', 'scoreupdater', 'nodedumper', 'plugin', 'junit', 'startserver', 'warc', 'updatehostdb',
  'readhostdb', 'sitemap', 'showproperties'];

test('an unbuilt Nutch command says it is not available and what to use instead (child process)', async (t) => {
  const cwd = tempDir(t);
  const r = await spawnNutch(['webgraph', '-segmentDir', 'x'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^nutch webgraph: not available in nutch-ts; .*scoring-opic/);
  assert.doesNotMatch(r.stderr, /Unknown command|where COMMAND is one of/);
});

test('every bin/nutch command is either built or answers not available', async (t) => {
  const cwd = tempDir(t);
  const built = new Set(commands.map((c) => c.name));
  for (const name of NUTCH_COMMANDS) {
    if (built.has(name)) continue;
    assert.ok(Object.hasOwn(unavailableCommands, name), `${name} is neither built nor listed as unavailable`);
    const r = await runNutch([name], { cwd });
    assert.equal(r.code, 2, name);
    assert.match(r.stderr, new RegExp(`^nutch ${name}: not available in nutch-ts; .+`), name);
  }
  for (const name of Object.keys(unavailableCommands)) assert.ok(!built.has(name), `${name} is built but still listed as unavailable`);
});

test('docs/migrating-from-nutch.md has a row for every bin/nutch command, true to the CLI', () => {
  const doc = readFileSync(join(projectRoot, 'docs', 'migrating-from-nutch.md'), 'utf8');
  const rows = new Map<string, string>();
  for (const m of doc.matchAll(/^\| `([a-z]+)`[^|]* \| ([a-z -]+) \|/gm)) rows.set(m[1]!, m[2]!.trim());
  const built = new Set(commands.map((c) => c.name));
  for (const name of NUTCH_COMMANDS) {
    const status = rows.get(name);
    assert.ok(status, `docs table has no row for ${name}`);
    if (built.has(name)) assert.match(status, /^(available|replaced)$/, `${name} is built; the docs say ${status}`);
    else assert.equal(status, 'not available', `${name} is not built; the docs say ${status}`);
  }
});
