/**
 * Plugin discovery, as DESIGN §3: the built-in plugins folder, then the embedding app's direct
 * dependencies that carry a "nutch" key (resolved in its node_modules, scoped names too), then the
 * folders named by `plugin.folders`. No crawl of the whole node_modules tree.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NutchError } from '../errors.js';
import { packageRoot } from '../config/package-root.js';
import { isPluginFolder, readPluginFolder } from './manifest.js';
import { readBuiltinIndex } from './builtin-index.js';
import type { PluginDescriptor, PluginSource } from './plugin-descriptor.js';

/** True when this module runs from TypeScript source (tsx), false from dist. */
export const runningFromSource = fileURLToPath(import.meta.url).endsWith('.ts');

export function builtinPluginsDir(): string {
  return runningFromSource ? join(packageRoot(), 'plugins') : join(packageRoot(), 'dist', 'plugins');
}

export interface DiscoveryOptions {
  /** Where the app's package.json is looked up (nearest at or above). */
  appRoot: string;
  /** Extra folders (plugin.folders), each holding plugin folders or being one. */
  folders: string[];
  /** Skip the built-ins (tests of third-party discovery). */
  includeBuiltins?: boolean;
  /** Where the built-ins are (default builtinPluginsDir(); tests of the build's manifest index). */
  builtinsDir?: string;
}

export function discoverPlugins(opts: DiscoveryOptions): PluginDescriptor[] {
  const found: PluginDescriptor[] = [];
  if (opts.includeBuiltins !== false) found.push(...scanFolder(opts.builtinsDir ?? builtinPluginsDir(), 'builtin'));
  found.push(...scanAppDependencies(opts.appRoot));
  // The same folder named twice (plugin.folders and pluginFolders) is scanned once, not reported as duplicates.
  for (const folder of new Set(opts.folders.map((f) => resolve(opts.appRoot, f)))) found.push(...scanFolder(folder, 'folder'));
  return checkDuplicates(found);
}

function scanFolder(dir: string, source: PluginSource): PluginDescriptor[] {
  if (source === 'builtin') {
    const indexed = readBuiltinIndex(dir);
    if (indexed) return indexed;
  }
  if (!existsSync(dir)) return [];
  if (isPluginFolder(dir)) return [readPluginFolder(dir, source)];
  const out: PluginDescriptor[] = [];
  for (const name of readdirSync(dir).sort()) {
    const sub = join(dir, name);
    if (statSync(sub).isDirectory() && isPluginFolder(sub)) out.push(readPluginFolder(sub, source));
  }
  return out;
}

/** The nearest package.json at or above `start`. */
export function findAppPackage(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    const p = join(dir, 'package.json');
    if (existsSync(p)) return p;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function scanAppDependencies(appRoot: string): PluginDescriptor[] {
  const pkgPath = findAppPackage(appRoot);
  if (!pkgPath) return [];
  let pkg: Record<string, any>;
  try {
    pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  } catch {
    return [];
  }
  if (pkg.name === 'nutch-ts') return [];
  const names = [
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.optionalDependencies ?? {}),
    ...Object.keys(pkg.devDependencies ?? {}),
  ];
  const out: PluginDescriptor[] = [];
  for (const name of [...new Set(names)]) {
    const dir = resolvePackageDir(dirname(pkgPath), name);
    if (!dir) continue;
    const text = readFileSync(join(dir, 'package.json'), 'utf8');
    let hasNutchKey: boolean;
    try {
      hasNutchKey = (JSON.parse(text) as Record<string, unknown>).nutch !== undefined;
    } catch {
      hasNutchKey = text.includes('"nutch"'); // reported with file:line:column by readPluginFolder
    }
    if (hasNutchKey) out.push(readPluginFolder(dir, 'package'));
  }
  return out;
}

/** Node's lookup of node_modules/<name> from `from` upwards (no require.resolve: plugins may have no exports). */
function resolvePackageDir(from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = join(dir, 'node_modules', ...name.split('/'));
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function checkDuplicates(list: PluginDescriptor[]): PluginDescriptor[] {
  const byId = new Map<string, PluginDescriptor>();
  for (const d of list) {
    const prev = byId.get(d.id);
    if (prev) {
      throw new NutchError(
        'NUTCH_PLUGIN_DUPLICATE_ID',
        `Plugin id "${d.id}" is declared twice: ${prev.manifestPath ?? '(object)'} and ${d.manifestPath ?? '(object)'}. Remove one, or rename it.`,
        { plugin: d.id, file: d.manifestPath },
      );
    }
    byId.set(d.id, d);
  }
  return list;
}
