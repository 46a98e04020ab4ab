/** PluginDescriptor and ExtensionDescriptor: what a manifest says, resolved to absolute paths and ids. */
import type { PropertyDefinition } from '../config/property-types.js';
import type { PluginDefinition } from './define-plugin.js';

export type PluginSource = 'builtin' | 'package' | 'folder' | 'object';

/**
 * What the repository needs of a typed extension-point handle (ExtensionPoints.URLFilter): its id, and
 * the implementation type it carries, so `getExtensions(ExtensionPoints.URLFilter)` returns
 * extensions whose instances are URLFilters.
 */
export interface PointToken<T> {
  readonly id: string;
  /** Phantom field carrying the implementation type. */
  readonly __type?: T;
}

export interface ExtensionDescriptor<T = unknown> {
  /** Globally unique: the plugin id when the plugin has one extension, else `<plugin-id>:<name>`. */
  id: string;
  pluginId: string;
  point: string;
  implementation: string;
  /** Other names that order lists and *.class properties match (Nutch class names, `<plugin>:<name>`). */
  aliases: string[];
  parameters: Record<string, string>;
  /** Phantom field: the implementation type of the point, when the descriptor came through a token. */
  readonly __type?: T;
}

export interface PluginDescriptor {
  id: string;
  name: string;
  version: string;
  provider: string;
  source: PluginSource;
  /** Plugin folder; undefined for object plugins. */
  root?: string;
  /** Manifest file (plugin.json or package.json). */
  manifestPath?: string;
  /** Absolute path of the main module (resolved to .ts beside .js when running from source). */
  mainPath?: string;
  requires: string[];
  extensionPoints: { id: string; name?: string; description?: string }[];
  extensions: ExtensionDescriptor[];
  config: Record<string, PropertyDefinition>;
  /** peerDependencies range on nutch-ts (package plugins). */
  hostRange?: string;
  /** For object plugins: the definition itself. */
  definition?: PluginDefinition;
}

export function matchesName(ext: ExtensionDescriptor, name: string): boolean {
  return ext.id === name || ext.aliases.includes(name);
}
