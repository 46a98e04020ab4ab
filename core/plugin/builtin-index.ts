/**
 * The built-in plugins' manifest index: `npm run build` writes dist/plugins/manifests.json, every
 * built-in's plugin.json validated once (write-builtin-index.ts), so that a command started from dist
 * reads one file instead of checking, reading and validating 50-odd manifests and resolving their real
 * paths at every start (~0.02-0.03 CPU-s of each command, and of each fetch worker process). Running
 * from source there is no index and the plugins folder is scanned as any other; so is dist without one.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonText } from '../config/json-file.js';
import { builtinDescriptor, type RawManifest } from './manifest.js';
import type { PluginDescriptor } from './plugin-descriptor.js';

export const BUILTIN_INDEX_FILE = 'manifests.json';

export interface BuiltinIndex {
  /** Each built-in's folder name (under the plugins folder) and its validated plugin.json, by folder name. */
  plugins: { folder: string; manifest: RawManifest }[];
}

/** The built-ins of `dir` from its index, in the order a scan gives them; undefined without an index. */
export function readBuiltinIndex(dir: string): PluginDescriptor[] | undefined {
  const file = join(dir, BUILTIN_INDEX_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const index = parseJsonText(text, file, 'NUTCH_MANIFEST_INVALID_JSON') as BuiltinIndex;
  const realDir = realpathSync.native(dir);
  return index.plugins.map((p) => builtinDescriptor(p.manifest, join(realDir, p.folder)));
}
