/**
 * definePlugin: the typed, decorator-free way to write a plugin's main module. Export the result as the
 * module's default export; manifest `implementation` names are keys of `extensions`.
 */
import type { Implementation, PluginContext } from './plugin-context.js';

export const PLUGIN_DEFINITION = Symbol.for('nutch-ts.plugin-definition');

export interface PluginDefinition {
  readonly [PLUGIN_DEFINITION]: true;
  start?(ctx: PluginContext): void | Promise<void>;
  /** Gets the same context object as start(), so per-crawler state can be keyed by it. */
  stop?(ctx: PluginContext): void | Promise<void>;
  extensions: Record<string, Implementation<unknown>>;
}

export function definePlugin(def: {
  start?(ctx: PluginContext): void | Promise<void>;
  /** Gets the same context object as start(), so per-crawler state can be keyed by it. */
  stop?(ctx: PluginContext): void | Promise<void>;
  extensions: Record<string, Implementation<any>>;
}): PluginDefinition {
  return { ...def, [PLUGIN_DEFINITION]: true };
}

export function isPluginDefinition(value: unknown): value is PluginDefinition {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PLUGIN_DEFINITION] === true;
}
