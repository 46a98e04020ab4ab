/**
 * Plugins passed to createNutch() as objects: no folder, same lifecycle and ordering. This is the
 * loose run-time shape (JavaScript callers reach it unchecked); the typed one that apps compile
 * against is core/extension-points/typed-plugin.ts.
 */
import { NutchError } from '../errors.js';
import type { PropertyDefinition } from '../config/property-types.js';
import { closestCorePoint, definePlugin, unknownPoint } from './define-plugin.js';
import type { Implementation, PluginContext } from './plugin-context.js';
import type { PluginDescriptor } from './plugin-descriptor.js';
import type { PointSpec } from './core-points.js';

/** What a plugin object has besides its extensions (the typed PluginObject shares it). */
export interface PluginObjectFields {
  id: string;
  version?: string;
  requires?: string[];
  config?: Record<string, PropertyDefinition>;
  start?(ctx: PluginContext): void | Promise<void>;
  stop?(ctx: PluginContext): void | Promise<void>;
}

export interface PluginObject extends PluginObjectFields {
  extensions: {
    /** Extension name; the extension id is the plugin id when there is one extension, else `<id>:<name>`. */
    id?: string;
    point: string;
    implementation: Implementation<any> | object;
    aliases?: string[];
    parameters?: Record<string, string>;
  }[];
}

export function objectToDescriptor(obj: PluginObject, points: readonly PointSpec[]): PluginDescriptor {
  if (!obj || typeof obj.id !== 'string' || !Array.isArray(obj.extensions)) {
    throw new NutchError('NUTCH_MANIFEST_INVALID', `A plugin object needs an "id" string and an "extensions" array (got ${JSON.stringify(Object.keys(obj ?? {}))}).`, {});
  }
  const single = obj.extensions.length === 1;
  const impls: Record<string, Implementation<unknown>> = {};
  const extensions = obj.extensions.map((e, i) => {
    if (!e || typeof e.point !== 'string') {
      throw new NutchError('NUTCH_PLUGIN_UNKNOWN_POINT', `Plugin object "${obj.id}": extension #${i} has no "point" string.`, { plugin: obj.id });
    }
    const spec = points.find((p) => p.id === e.point);
    const near = spec ? undefined : closestCorePoint(e.point);
    if (near) throw unknownPoint(`Plugin object "${obj.id}": extension ${e.id ?? `#${i}`}`, e.point, near, { plugin: obj.id });
    if (spec?.workerOnly) {
      throw new NutchError(
        'NUTCH_PLUGIN_OBJECT_NOT_ALLOWED',
        `Plugin object "${obj.id}" extends ${e.point}, which runs in parse worker threads and needs a module path: publish it as a folder or npm plugin with a plugin.json instead.`,
        { plugin: obj.id, point: e.point },
      );
    }
    const name = e.id ?? `${e.point.toLowerCase()}-${i}`;
    impls[name] = e.implementation as Implementation<unknown>;
    const qualified = `${obj.id}:${name}`;
    return {
      id: single ? obj.id : qualified,
      pluginId: obj.id,
      point: e.point,
      implementation: name,
      aliases: [...(e.aliases ?? []), ...(single ? [qualified] : [])],
      parameters: { ...(e.parameters ?? {}) },
    };
  });
  return {
    id: obj.id,
    name: obj.id,
    version: obj.version ?? '0.0.0',
    provider: '',
    source: 'object',
    requires: [...(obj.requires ?? [])],
    extensionPoints: [],
    extensions,
    config: obj.config ?? {},
    definition: definePlugin({ start: obj.start?.bind(obj), stop: obj.stop?.bind(obj), extensions: impls }),
  };
}
