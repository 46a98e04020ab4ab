/**
 * definePlugin: the decorator-free way to write a plugin's main module. Export the result (default or
 * named); manifest `implementation` names are keys of `extensions`. An entry is a class or factory, or
 * `{ point, implementation }`, which names its extension point: definePlugin checks that name against
 * core's points here, and the repository checks it against the manifest's point when the plugin loads.
 * (The compile-time types live in core/extension-points/typed-plugin.ts.)
 */
import { NutchError } from '../errors.js';
import { editDistance } from '../config/property-types.js';
import { corePoints } from './core-points.js';
import type { Implementation, PluginContext } from './plugin-context.js';

export const PLUGIN_DEFINITION = Symbol.for('nutch-ts.plugin-definition');

/** A definePlugin() entry that names its extension point. */
export interface PointedImplementation {
  point: string;
  implementation: Implementation<unknown>;
}

export interface PluginDefinition {
  readonly [PLUGIN_DEFINITION]: true;
  readonly id?: string;
  start?(ctx: PluginContext): void | Promise<void>;
  /** Gets the same context object as start(), so per-crawler state can be keyed by it. */
  stop?(ctx: PluginContext): void | Promise<void>;
  extensions: Record<string, Implementation<unknown> | PointedImplementation>;
}

export function definePlugin(def: {
  id?: string;
  start?(ctx: PluginContext): void | Promise<void>;
  /** Gets the same context object as start(), so per-crawler state can be keyed by it. */
  stop?(ctx: PluginContext): void | Promise<void>;
  extensions: Record<string, Implementation<any> | PointedImplementation>;
}): PluginDefinition {
  const who = def?.id ? `definePlugin() of plugin ${def.id}` : 'definePlugin()';
  if (!def || typeof def.extensions !== 'object' || def.extensions === null) {
    throw new NutchError('NUTCH_PLUGIN_BAD_IMPLEMENTATION', `${who}: needs an "extensions" object (implementation name -> class, factory or { point, implementation }).`, { plugin: def?.id });
  }
  for (const [name, entry] of Object.entries(def.extensions)) {
    if (!isPointed(entry)) continue;
    if (typeof entry.point !== 'string' || !entry.point) {
      throw new NutchError('NUTCH_PLUGIN_UNKNOWN_POINT', `${who}: extension "${name}" has no "point" string.`, { plugin: def.id, extension: name });
    }
    // A point that is not core's may be declared by another plugin, which only the repository knows;
    // a near miss of a core point ("UrlFilter") is a typo, and failing now beats a skipped extension.
    if (!corePoints.some((p) => p.id === entry.point)) {
      const near = closestCorePoint(entry.point);
      if (near) throw unknownPoint(`${who}: extension "${name}"`, entry.point, near, { plugin: def.id, extension: name });
    }
  }
  return { ...def, [PLUGIN_DEFINITION]: true };
}

export function isPluginDefinition(value: unknown): value is PluginDefinition {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PLUGIN_DEFINITION] === true;
}

/** `{ point, implementation }` rather than a class, a factory or (for objects) an instance. */
export function isPointed(entry: unknown): entry is PointedImplementation {
  return typeof entry === 'object' && entry !== null && 'point' in entry && 'implementation' in entry;
}

/**
 * A core point id within two edits of `id`, ignoring case ("UrlFilter", "URLFilters"), for "did you
 * mean"; farther names may be another plugin's points.
 */
export function closestCorePoint(id: string): string | undefined {
  let best: string | undefined;
  let bestDist = 3;
  for (const p of corePoints) {
    const d = editDistance(id.toLowerCase(), p.id.toLowerCase());
    if (d < bestDist) [best, bestDist] = [p.id, d];
  }
  return best;
}

export function unknownPoint(where: string, point: string, near: string | undefined, details: Record<string, unknown>): NutchError {
  const known = corePoints.map((p) => p.id).join(', ');
  return new NutchError(
    'NUTCH_PLUGIN_UNKNOWN_POINT',
    `${where} names extension point "${point}", which does not exist${near ? `; did you mean "${near}"?` : `. Core's points: ${known}.`}`,
    { ...details, point },
  );
}
