/**
 * Writes the built-in plugins' manifest index (builtin-index.ts) into a built plugins folder, after
 * validating every manifest in it: a bad plugin.json fails the build, naming the file and pointer.
 *
 *   npx tsx core/plugin/write-builtin-index.ts dist/plugins     # run by `npm run build` after tsup
 */
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_INDEX_FILE, type BuiltinIndex } from './builtin-index.js';
import { readPluginJson } from './manifest.js';

export function writeBuiltinIndex(dir: string): number {
  const plugins: BuiltinIndex['plugins'] = [];
  // sorted as discovery's scan sorts, so the index gives the same order
  for (const folder of readdirSync(dir).sort()) {
    const manifestPath = join(dir, folder, 'plugin.json');
    if (!statSync(join(dir, folder)).isDirectory() || !existsSync(manifestPath)) continue;
    plugins.push({ folder, manifest: readPluginJson(manifestPath) });
  }
  writeFileSync(join(dir, BUILTIN_INDEX_FILE), `${JSON.stringify({ plugins } satisfies BuiltinIndex)}\n`);
  return plugins.length;
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: tsx core/plugin/write-builtin-index.ts <built plugins folder>');
  process.exit(2);
}
console.log(`${join(dir, BUILTIN_INDEX_FILE)}: ${writeBuiltinIndex(dir)} built-in plugins`);
