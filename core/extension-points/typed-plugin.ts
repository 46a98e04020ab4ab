/**
 * The typed face of plugin authoring: plugin objects and definePlugin() entries whose `point` must be
 * an extension point id and whose `implementation` is checked against that point's interface, so
 * `point: 'UrlFilter'` or a filter without `filter()` fails to compile. The loose runtime shapes in
 * core/plugin stay as they are (JavaScript authors and manifests reach them unchecked, and core/plugin
 * cannot know the point interfaces); the checks there repeat these at run time.
 */
import { definePlugin as defineUntyped, type PluginDefinition } from '../plugin/define-plugin.js';
import type { Implementation, PluginContext } from '../plugin/plugin-context.js';
import type { PluginObjectFields } from '../plugin/plugin-object.js';
import type { ExtensionPointId, ExtensionPointTypes } from './extension-point.js';

/** Points that run in parse worker threads: they need a module path, so plugin objects cannot extend them. */
export type WorkerOnlyPointId = 'Parser' | 'HtmlParseFilter' | 'Signature';
export type ObjectPointId = Exclude<ExtensionPointId, WorkerOnlyPointId>;

/** A class, a factory, or (in plugin objects) the instance itself, typed by the point. */
export type ImplementationOf<P extends ExtensionPointId> = Implementation<ExtensionPointTypes[P]>;

/** One extension of a plugin object: `point` picks the interface `implementation` must satisfy. */
export type PluginObjectExtension = {
  [P in ObjectPointId]: {
    /** Extension name; the extension id is the plugin id when there is one extension, else `<id>:<name>`. */
    id?: string;
    point: P;
    implementation: ImplementationOf<P> | ExtensionPointTypes[P];
    aliases?: string[];
    parameters?: Record<string, string>;
  };
}[ObjectPointId];

/** A plugin passed to createNutch()/createContext() as an object: no folder, same lifecycle and ordering. */
export interface PluginObject extends PluginObjectFields {
  extensions: PluginObjectExtension[];
}

/** A definePlugin() entry that names its point, so the implementation is type-checked against it. */
export type TypedExtension = {
  [P in ExtensionPointId]: { point: P; implementation: ImplementationOf<P> };
}[ExtensionPointId];

export interface PluginDefinitionInput {
  /** The plugin id, for error messages (the manifest's id is the one that counts). */
  id?: string;
  start?(ctx: PluginContext): void | Promise<void>;
  /** Gets the same context object as start(), so per-crawler state can be keyed by it. */
  stop?(ctx: PluginContext): void | Promise<void>;
  /**
   * Keys are the manifest's `implementation` names. A value is a class or factory (typed only by the
   * manifest), or `{ point, implementation }`, checked against the point at compile time and against
   * the manifest's point when the plugin loads.
   */
  extensions: Record<string, TypedExtension | Implementation<any>>;
}

/** definePlugin with each `{ point, implementation }` entry checked against its point's interface. */
export function definePlugin(def: PluginDefinitionInput): PluginDefinition {
  return defineUntyped(def);
}
