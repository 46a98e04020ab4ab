/** What an implementation receives: the plugin author's whole view of the host. */
import type { Configuration } from '../config/configuration.js';
import type { Logger } from '../log.js';

export interface PluginInfo {
  id: string;
  version: string;
  /** The plugin's folder (undefined for plugins passed as objects). */
  root?: string;
}

export interface PluginContext {
  conf: Configuration;
  log: Logger;
  plugin: PluginInfo;
  /** The extension's `parameters` from the manifest (empty in start()). */
  parameters: Readonly<Record<string, string>>;
}

/** A plain class (constructor takes nothing or the context) or a factory returning the instance. */
export type Implementation<T> = (new (ctx: PluginContext) => T) | ((ctx: PluginContext) => T | Promise<T>);
