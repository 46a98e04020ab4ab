/**
 * Reads and validates plugin manifests: plugin.json in a folder, or the "nutch" key of an npm
 * package's package.json. Every error names the file and the JSON pointer; `main` must stay inside
 * the plugin's folder.
 */
import { existsSync, readFileSync, realpathSync as jsRealpathSync } from 'node:fs';

// realpath(3) in one call: the JavaScript realpathSync lstat()s every component of every path, which
// for the 50-odd built-in plugins read at every start cost more than reading their manifests.
const realpathSync = jsRealpathSync.native;
import { join, relative, resolve, isAbsolute, sep } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { NutchError } from '../errors.js';
import { parseJsonText } from '../config/json-file.js';
import type { PropertyDefinition } from '../config/property-types.js';
import type { ExtensionDescriptor, PluginDescriptor, PluginSource } from './plugin-descriptor.js';
// manifest.schema.json compiled by ajv at build time (generate-schema-validators.ts), not at each start
import { validate as generatedValidate } from './manifest-validator.generated.js';

const validateManifest = generatedValidate as ValidateFunction;

export interface RawManifest {
  id?: string;
  name?: string;
  version?: string;
  provider?: string;
  main?: string;
  requires?: string[];
  extensionPoints?: { id: string; name?: string; description?: string }[];
  extensions: { id: string; point: string; implementation: string; aliases?: string[]; parameters?: Record<string, string> }[];
  config?: Record<string, PropertyDefinition>;
}

/** Does this folder hold a plugin (plugin.json, or package.json with a "nutch" key)? */
export function isPluginFolder(dir: string): boolean {
  if (existsSync(join(dir, 'plugin.json'))) return true;
  const pkg = join(dir, 'package.json');
  if (!existsSync(pkg)) return false;
  const text = readFileSync(pkg, 'utf8');
  try {
    return typeof JSON.parse(text).nutch === 'object';
  } catch {
    // A broken package.json that mentions "nutch" is reported (by readPluginFolder), not silently skipped.
    return text.includes('"nutch"');
  }
}

/** Reads the plugin in `dir`; plugin.json wins over package.json's "nutch" key. */
export function readPluginFolder(dir: string, source: PluginSource): PluginDescriptor {
  const pluginJson = join(dir, 'plugin.json');
  if (existsSync(pluginJson)) {
    const manifest = readPluginJson(pluginJson);
    return toDescriptor(manifest, realpathSync(dir), pluginJson, source, {});
  }
  const pkgPath = join(dir, 'package.json');
  const pkg = parseJsonText(readFileSync(pkgPath, 'utf8'), pkgPath, 'NUTCH_MANIFEST_INVALID_JSON') as Record<string, any>;
  const manifest = validate(pkg.nutch, pkgPath, '/nutch');
  return toDescriptor(manifest, realpathSync(dir), pkgPath, source, {
    id: pkg.name,
    version: pkg.version,
    name: pkg.description ?? pkg.name,
    provider: typeof pkg.author === 'string' ? pkg.author : pkg.author?.name,
    main: pkg.main,
    hostRange: pkg.peerDependencies?.['nutch-ts'],
  });
}

/** A plugin.json, parsed and validated (every error names the file and the JSON pointer). */
export function readPluginJson(file: string): RawManifest {
  const raw = parseJsonText(readFileSync(file, 'utf8'), file, 'NUTCH_MANIFEST_INVALID_JSON');
  const manifest = validate(raw, file, '');
  if (!manifest.id) throw invalid(file, '', 'must have required property \'id\'');
  return manifest;
}

/**
 * The descriptor of a built-in plugin from the manifest index the build wrote (builtin-index.ts):
 * the manifest was validated and its main module emitted by that build, beside it in `root`, a real
 * directory; only the paths are derived here.
 */
export function builtinDescriptor(manifest: RawManifest, root: string): PluginDescriptor {
  const file = join(root, 'plugin.json');
  return toDescriptor(manifest, root, file, 'builtin', {}, { checkMainOnDisk: false });
}

function validate(raw: unknown, file: string, base: string): RawManifest {
  if (validateManifest(raw)) return raw as unknown as RawManifest;
  const errors = validateManifest.errors ?? [];
  const lines = errors.slice(0, 5).map((e) => `${pointerOf(e, base) || '/'} ${describe(e)}`);
  throw new NutchError(
    'NUTCH_MANIFEST_INVALID',
    `${file}: invalid plugin manifest: ${lines.join('; ')}`,
    { file, pointer: pointerOf(errors[0]!, base) },
  );
}

/** The JSON pointer of the offending value; for an unknown property, the property itself. */
function pointerOf(e: ErrorObject, base: string): string {
  const extra = e.keyword === 'additionalProperties' ? `/${(e.params as { additionalProperty: string }).additionalProperty.replace(/~/g, '~0').replace(/\//g, '~1')}` : '';
  return `${base}${e.instancePath}${extra}`;
}

function describe(e: ErrorObject): string {
  if (e.keyword === 'additionalProperties') return `is not a known manifest field (allowed: ${Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {}).join(', ')})`;
  if (e.keyword === 'enum') return `${e.message}: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
  return e.message ?? e.keyword;
}

function invalid(file: string, pointer: string, message: string): NutchError {
  return new NutchError('NUTCH_MANIFEST_INVALID', `${file}: invalid plugin manifest: ${pointer || '/'} ${message}`, { file, pointer });
}

interface PackageFallbacks {
  id?: string;
  version?: string;
  name?: string;
  provider?: string;
  main?: string;
  hostRange?: string;
}

/** `root` is the plugin folder's real path. */
function toDescriptor(m: RawManifest, root: string, file: string, source: PluginSource, pkg: PackageFallbacks, opts = { checkMainOnDisk: true }): PluginDescriptor {
  const id = m.id ?? pkg.id;
  if (!id) throw invalid(file, '/nutch', "must have required property 'id' (or the package a \"name\")");
  const mainRel = m.main ?? pkg.main ?? 'index.js';
  const mainPath = resolveMain(root, mainRel, file, opts.checkMainOnDisk);
  const single = m.extensions.length === 1;
  const extensions: ExtensionDescriptor[] = m.extensions.map((e) => {
    const qualified = `${id}:${e.id}`;
    const extId = single ? id : qualified;
    const aliases = [...(e.aliases ?? [])];
    if (single) aliases.push(qualified);
    return { id: extId, pluginId: id, point: e.point, implementation: e.implementation, aliases, parameters: { ...(e.parameters ?? {}) } };
  });
  return {
    id,
    name: m.name ?? pkg.name ?? id,
    version: m.version ?? pkg.version ?? '0.0.0',
    provider: m.provider ?? pkg.provider ?? '',
    source,
    root,
    manifestPath: file,
    mainPath,
    requires: [...(m.requires ?? [])],
    extensionPoints: m.extensionPoints ?? [],
    extensions,
    config: m.config ?? {},
    hostRange: pkg.hostRange,
  };
}

/**
 * `main` must resolve inside the plugin root. From source (tsx) a built-in names index.js while
 * index.ts sits beside it: the .ts is used when the .js does not exist. `onDisk` false (a built-in
 * from the build's index) checks the path only.
 */
function resolveMain(root: string, main: string, file: string, onDisk: boolean): string {
  const pointer = file.endsWith('package.json') ? '/nutch/main' : '/main';
  const target = isAbsolute(main) ? main : resolve(root, main);
  const rel = relative(root, target);
  if (rel.startsWith('..') || isAbsolute(rel) || rel === '') {
    throw new NutchError(
      'NUTCH_MANIFEST_MAIN_OUTSIDE_ROOT',
      `${file}: ${pointer} "${main}" resolves to ${target}, outside the plugin folder ${root}${sep}. A plugin's main module must live inside its folder.`,
      { file, pointer },
    );
  }
  if (!onDisk) return target;
  let chosen = target;
  if (!existsSync(target) && /\.(m?js)$/.test(target)) {
    const ts = target.replace(/\.(m?)js$/, '.$1ts');
    if (existsSync(ts)) chosen = ts;
  }
  // a symlink inside the folder may point anywhere: compare real paths (the root itself may be a link)
  if (existsSync(chosen)) {
    const realRoot = root;
    const realTarget = realpathSync(chosen);
    const realRel = relative(realRoot, realTarget);
    if (realRel.startsWith('..') || isAbsolute(realRel) || realRel === '') {
      throw new NutchError(
        'NUTCH_MANIFEST_MAIN_OUTSIDE_ROOT',
        `${file}: ${pointer} "${main}" is a link to ${realTarget}, outside the plugin folder ${realRoot}${sep}. A plugin's main module must live inside its folder.`,
        { file, pointer },
      );
    }
  }
  return chosen;
}
