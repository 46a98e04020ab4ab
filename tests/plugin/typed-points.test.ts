/**
 * Extension points typed end to end (issue 17): plugin objects and definePlugin `{ point, implementation }`
 * entries are checked against the point's interface at compile time (the TypeScript compiler runs on
 * snippets, docs/plugins.md's object-plugin example among them), and again at run time with errors
 * that name the plugin and the closest point.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { definePlugin } from '../../sdk/plugin.js';
import { fixtureContext } from '../helpers/context.js';
import { projectRoot, tempDir, writeFile } from '../helpers/temp-dir.js';

function docSnippet(file: string): string {
  const md = readFileSync(join(projectRoot, 'docs', 'plugins.md'), 'utf8');
  const m = new RegExp(`<!-- docs-typecheck: ${file.replace('.', '\\.')} -->\\s*\\n\`\`\`ts\\n([\\s\\S]*?)\\n\`\`\``).exec(md);
  assert.ok(m, `docs/plugins.md has a ${file} snippet`);
  return m[1]!;
}

/** Type-checks snippets importing 'nutch-ts' and 'nutch-ts/plugin' (mapped to the sources) under --strict. */
function typeErrors(t: { after(fn: () => void): void }, files: Record<string, string>): Record<string, string[]> {
  const dir = tempDir(t);
  const names = Object.entries(files).map(([name, code]) => writeFile(join(dir, name), code));
  const program = ts.createProgram(names, {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    typeRoots: [join(projectRoot, 'node_modules', '@types')],
    paths: { 'nutch-ts': [join(projectRoot, 'sdk', 'index.ts')], 'nutch-ts/plugin': [join(projectRoot, 'sdk', 'plugin.ts')] },
  });
  const out: Record<string, string[]> = Object.fromEntries(Object.keys(files).map((n) => [n, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const name = d.file ? Object.keys(files).find((n) => d.file!.fileName === join(dir, n)) : undefined;
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (name) out[name]!.push(text);
    else assert.fail(`type error outside the snippets: ${d.file?.fileName ?? ''} ${text}`);
  }
  return out;
}

test('compile time: typed plugin objects and definePlugin entries', { timeout: 120_000 }, (t) => {
  const errors = typeErrors(t, {
    'docs-object-plugin.mts': docSnippet('object-plugin.ts'),
    'bad-point.mts': `import { createNutch } from 'nutch-ts';
await createNutch({ plugins: [{ id: 'x', extensions: [{ point: 'UrlFilter', implementation: { filter: (u: string) => u } }] }] });`,
    'bad-implementation.mts': `import { createNutch } from 'nutch-ts';
await createNutch({ plugins: [{ id: 'x', extensions: [{ point: 'URLFilter', implementation: { normalize: (u: string) => u } }] }] });`,
    'worker-point.mts': `import type { PluginObject } from 'nutch-ts';
export const p: PluginObject = { id: 'x', extensions: [{ point: 'Parser', implementation: { getParse: async () => ({}) } }] };`,
    'define-ok.mts': `import { definePlugin, type URLFilter, type IndexingFilter } from 'nutch-ts/plugin';
export default definePlugin({ extensions: {
  Deny: { point: 'URLFilter', implementation: class implements URLFilter { filter(url: string) { return url; } } },
  Tag: { point: 'IndexingFilter', implementation: () => ({ filter: (doc) => doc }) satisfies IndexingFilter },
  Loose: class { filter(url: string) { return url; } },
} });`,
    'define-bad.mts': `import { definePlugin } from 'nutch-ts/plugin';
export default definePlugin({ extensions: { Deny: { point: 'URLFilter', implementation: class { normalize(url: string) { return url; } } } } });`,
  });
  assert.deepEqual(errors['docs-object-plugin.mts'], [], 'docs/plugins.md object plugin compiles under --strict');
  assert.deepEqual(errors['define-ok.mts'], []);
  assert.match(errors['bad-point.mts']!.join('\n'), /"UrlFilter"/);
  assert.match(errors['bad-implementation.mts']!.join('\n'), /'normalize' does not exist in type 'URLFilter/);
  assert.match(errors['worker-point.mts']!.join('\n'), /"Parser"/);
  assert.match(errors['define-bad.mts']!.join('\n'), /Property 'filter' is missing/);
});

test('run time: definePlugin rejects a near miss of a core point, naming the plugin and the point it meant', () => {
  assert.throws(
    () => definePlugin({ id: 'nutch-deny', extensions: { Deny: { point: 'UrlFilter', implementation: class { filter(u: string) { return u; } } } as never } }),
    (err: any) => err.code === 'NUTCH_PLUGIN_UNKNOWN_POINT' && err.message === 'definePlugin() of plugin nutch-deny: extension "Deny" names extension point "UrlFilter", which does not exist; did you mean "URLFilter"?',
  );
  // A far-off name may be a point another plugin declares: only the repository can tell.
  assert.doesNotThrow(() => definePlugin({ extensions: { X: { point: 'LanguageIdentifier', implementation: class {} } as never } }));
});

test('run time: a plugin object with an unknown point fails createContext, naming the plugin', (t) => {
  assert.throws(
    () => fixtureContext(t, { plugins: [{ id: 'app-filters', extensions: [{ id: 'deny', point: 'UrlFilter', implementation: { filter: (u: string) => u } } as never] }] }),
    (err: any) => err.code === 'NUTCH_PLUGIN_UNKNOWN_POINT' && /Plugin object "app-filters": extension deny names extension point "UrlFilter", which does not exist; did you mean "URLFilter"\?/.test(err.message),
  );
  assert.throws(
    () => fixtureContext(t, { plugins: [{ id: 'app-odd', extensions: [{ id: 'odd', point: 'Teleporter', implementation: {} } as never] }] }),
    (err: any) => err.code === 'NUTCH_PLUGIN_UNKNOWN_POINT' && err.details.plugin === 'app-odd' && /"Teleporter"/.test(err.message),
  );
});

test('run time: a definePlugin entry whose point differs from the manifest fails with NUTCH_PLUGIN_POINT_MISMATCH', async (t) => {
  const dir = join(tempDir(t), 'fx-mismatch');
  writeFile(join(dir, 'plugin.json'), { id: 'fx-mismatch', version: '1.0.0', main: 'index.mjs', extensions: [{ id: 'f', point: 'URLFilter', implementation: 'Lower' }] });
  const sdkPlugin = pathToFileURL(join(projectRoot, 'sdk', 'plugin.ts')).href;
  writeFile(join(dir, 'index.mjs'), `import { definePlugin } from ${JSON.stringify(sdkPlugin)};
export default definePlugin({ extensions: { Lower: { point: 'URLNormalizer', implementation: () => ({ normalize: (u) => u.toLowerCase() }) } } });\n`);
  const ctx = fixtureContext(t, { pluginFolders: [dir], config: { 'plugin.includes': 'fx-mismatch' } });
  await assert.rejects(ctx.extensions.urlFilters(), (err: any) =>
    err.code === 'NUTCH_PLUGIN_POINT_MISMATCH' && err.details.plugin === 'fx-mismatch' &&
    /declares extension fx-mismatch for URLFilter, but definePlugin\(\) gives "Lower" as a URLNormalizer/.test(err.message));
});

test('run time: a manifest extension for an unknown point is skipped with a warning that says what was meant', (t) => {
  const dir = join(tempDir(t), 'fx-typo');
  writeFile(join(dir, 'plugin.json'), { id: 'fx-typo', version: '1.0.0', main: 'index.mjs', extensions: [{ id: 'f', point: 'URLFilters', implementation: 'F' }] });
  writeFile(join(dir, 'index.mjs'), 'export class F { filter(u) { return u; } }\n');
  const ctx = fixtureContext(t, { pluginFolders: [dir], config: { 'plugin.includes': 'fx-typo' } });
  const warning = ctx.log.records.find((r) => r.fields.code === 'NUTCH_PLUGIN_UNKNOWN_POINT');
  assert.match(warning?.msg ?? '', /extension point "URLFilters" is not declared by core or any active plugin \(did you mean "URLFilter"\?\)/);
});
