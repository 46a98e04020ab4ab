import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { checkImports, formatViolations, importsOf } from './import-rules.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/import-direction', import.meta.url));

test('the tree keeps DESIGN §2\'s one-way imports; plugins import only sdk/plugin.ts or a library plugin they require', () => {
  const violations = checkImports(repoRoot);
  assert.equal(violations.length, 0, `import rules broken:\n${formatViolations(violations, repoRoot)}`);
});

test('a fixture tree with deliberate violations: each one reported with file, line and rule', () => {
  const got = checkImports(fixture).map((v) => `${v.file}:${v.line} ${v.specifier} — ${v.rule}`).sort();
  assert.deepEqual(got, [
    'core/extension-points/point.ts:2 ../../plugins/good/index.js — core never imports plugins/',
    'core/model/datum.ts:3 ../crawl/stage.js — core layer model must not import layer crawl',
    'core/storage/store.ts:2 ../extension-points/point.js — core layer storage must not import layer extension-points',
    'plugins/bad/index.ts:2 ../lib-shared/index.js — plugin bad imports library plugin lib-shared without "requires": ["lib-shared"] in its manifest',
    'plugins/bad/index.ts:3 ../lib-shared/helper.js — plugin bad imports a file of plugin lib-shared: only a library plugin\'s main module (../lib-shared/index.js)',
    'plugins/bad/index.ts:4 ../good/index.js — plugin bad imports plugin good, which is not a library plugin (one with "extensions": [])',
    'plugins/bad/index.ts:5 ../../core/storage/store.js — plugin bad imports only the plugin-author surface (sdk/plugin.ts) or a library plugin it requires, not core/storage/store.ts',
    'plugins/bad/index.ts:7 nutch-ts/plugin — a built-in plugin imports core by relative path to sdk/plugin.ts, never by package name',
  ]);
});

test('imports are found in every form: import, import type, export-from, side effect, dynamic, over several lines', () => {
  const text = [
    "import a from './a.js';",
    "import type { B } from './b.js';",
    'import {',
    '  c,',
    "} from './c.js';",
    "export * from './d.js';",
    "import './e.js';",
    "const f = await import('./f.js');",
    "// a comment that says import nothing from here",
  ].join('\n');
  assert.deepEqual(importsOf(text), [
    { specifier: './a.js', line: 1 }, { specifier: './b.js', line: 2 }, { specifier: './c.js', line: 5 },
    { specifier: './d.js', line: 6 }, { specifier: './e.js', line: 7 }, { specifier: './f.js', line: 8 },
  ]);
});
