/**
 * Turns an implementation export into an instance inside the plugin's tsyringe child container:
 * a class (constructed with the PluginContext) or a factory (called with it, may be async).
 * Plugin authors never see tsyringe; the container only wires core's tokens.
 */
import type { DependencyContainer } from 'tsyringe';
import { NutchError, errorMessage, isNutchError } from '../errors.js';
import type { PluginContext } from './plugin-context.js';
import type { ExtensionDescriptor } from './plugin-descriptor.js';

export const PLUGIN_CONTEXT = Symbol.for('nutch-ts.PluginContext');

export function isClass(fn: unknown): fn is new (...args: unknown[]) => unknown {
  return typeof fn === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(fn));
}

export async function instantiate(
  pluginContainer: DependencyContainer,
  ext: ExtensionDescriptor,
  impl: unknown,
  ctx: PluginContext,
  requiredMethods: readonly string[],
): Promise<unknown> {
  const token = Symbol(`${ext.id}#instance`);
  // The extension's own context (its manifest parameters) shadows the plugin-wide one.
  const container = pluginContainer.createChildContainer();
  container.register(PLUGIN_CONTEXT, { useValue: ctx });
  if (isClass(impl)) {
    const Impl = impl;
    container.register(token, { useFactory: (c) => new Impl(c.resolve<PluginContext>(PLUGIN_CONTEXT)) });
  } else if (typeof impl === 'function') {
    const factory = impl as (ctx: PluginContext) => unknown;
    container.register(token, { useFactory: (c) => factory(c.resolve<PluginContext>(PLUGIN_CONTEXT)) });
  } else if (typeof impl === 'object' && impl !== null) {
    container.register(token, { useValue: impl });
  } else {
    throw new NutchError(
      'NUTCH_PLUGIN_BAD_IMPLEMENTATION',
      `Plugin ${ext.pluginId}: export "${ext.implementation}" for extension ${ext.id} (${ext.point}) is ${typeof impl}; export a class, a factory function, or an object.`,
      { plugin: ext.pluginId, extension: ext.id, point: ext.point },
    );
  }
  let instance: unknown;
  try {
    instance = await (container.resolve(token) as unknown);
  } catch (err) {
    // A NutchError (a rule file not found, a bad property) already names its culprit and keeps its code.
    if (isNutchError(err)) throw err;
    throw new NutchError(
      'NUTCH_EXTENSION_FAILED',
      `Plugin ${ext.pluginId}: creating extension ${ext.id} (${ext.point}) from export "${ext.implementation}" failed: ${errorMessage(err)}`,
      { plugin: ext.pluginId, extension: ext.id, point: ext.point },
      { cause: err },
    );
  }
  const missing = requiredMethods.filter((m) => typeof (instance as Record<string, unknown> | null)?.[m] !== 'function');
  if (instance === null || typeof instance !== 'object' || missing.length) {
    throw new NutchError(
      'NUTCH_PLUGIN_BAD_IMPLEMENTATION',
      `Plugin ${ext.pluginId}: extension ${ext.id} (${ext.point}) from export "${ext.implementation}" lacks ${missing.length ? missing.map((m) => `${m}()`).join(', ') : 'an object instance'}.`,
      { plugin: ext.pluginId, extension: ext.id, point: ext.point },
    );
  }
  return instance;
}
