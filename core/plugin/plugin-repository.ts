/**
 * PluginRepository, as Nutch's: discovers manifests at start, decides which plugins are active, and
 * instantiates extensions lazily — no plugin module is imported until one of its extensions is first
 * needed. One repository per crawler: instances, started plugins and containers are never shared.
 */
import { pathToFileURL } from 'node:url';
import type { DependencyContainer } from 'tsyringe';
import { NutchError, errorMessage, isNutchError } from '../errors.js';
import type { Configuration } from '../config/configuration.js';
import type { Logger } from '../log.js';
import { describeActivation, resolveActivation, startOrder, type Activation } from './activation.js';
import { describeSource } from '../config/configuration.js';
import { checkIncludes, describeUnmatched, type UnmatchedAlternative } from './includes-check.js';
import { replacementForClass, replacementName } from './nutch-plugin-replacements.js';
import { corePoints, type PointSpec } from './core-points.js';
import { isPluginDefinition, isPointed, unknownPoint, type PluginDefinition } from './define-plugin.js';
import { closestName } from '../config/property-types.js';
import { discoverPlugins } from './discovery.js';
import { instantiate, PLUGIN_CONTEXT } from './instantiate.js';
import { objectToDescriptor, type PluginObject } from './plugin-object.js';
import type { PluginContext } from './plugin-context.js';
import { matchesName, type ExtensionDescriptor, type PluginDescriptor, type PointToken } from './plugin-descriptor.js';

export interface PluginRepositoryOptions {
  conf: Configuration;
  log: Logger;
  /** Where the app's package.json is looked up (createNutch's `root`, else the working directory). */
  appRoot: string;
  hostVersion: string;
  /** Plugins passed as objects. */
  plugins?: PluginObject[];
  /** Extra plugin folders besides plugin.folders. */
  pluginFolders?: string[];
  includeBuiltins?: boolean;
  /**
   * Manifests already read (a parse worker gets the main thread's active plugins): used as they are,
   * instead of discovering the built-ins, the app's dependencies and the folders.
   */
  descriptors?: readonly PluginDescriptor[];
  /** Log the plugin.includes check (default true); parse workers repeat the main thread's repository and stay quiet. */
  reportIncludes?: boolean;
}

export interface SkippedExtension {
  extension: string;
  plugin: string;
  point: string;
  reason: string;
}

interface PluginModule {
  exports: Record<string, unknown>;
  definition?: PluginDefinition;
}

export const CONFIGURATION = Symbol.for('nutch-ts.Configuration');
export const LOGGER = Symbol.for('nutch-ts.Logger');

export class PluginRepository {
  readonly descriptors: readonly PluginDescriptor[];
  readonly activation: ReadonlyMap<string, Activation>;
  readonly skippedExtensions: SkippedExtension[] = [];
  /** Alternatives of the effective plugin.includes that match no discovered plugin (warned about once). */
  readonly unmatchedIncludes: readonly UnmatchedAlternative[];
  private readonly points = new Map<string, PointSpec>();
  private readonly byPoint = new Map<string, ExtensionDescriptor[]>();
  private readonly conf: Configuration;
  private readonly log: Logger;
  /** Made when the first extension is instantiated: commands that only read manifests never load tsyringe. */
  private container?: Promise<DependencyContainer>;
  private readonly pluginContainers = new Map<string, Promise<DependencyContainer>>();
  private readonly pluginContexts = new Map<string, PluginContext>();
  private readonly modules = new Map<string, Promise<PluginModule>>();
  private readonly instances = new Map<string, Promise<unknown>>();
  private readonly starting = new Map<string, Promise<void>>();
  private readonly started: string[] = [];
  private closed = false;

  constructor(opts: PluginRepositoryOptions) {
    this.conf = opts.conf;
    this.log = opts.log;
    for (const p of corePoints) this.points.set(p.id, p);
    const discovered = opts.descriptors ? [...opts.descriptors] : discoverPlugins({
      appRoot: opts.appRoot,
      folders: [...opts.conf.getStrings('plugin.folders'), ...(opts.pluginFolders ?? [])],
      includeBuiltins: opts.includeBuiltins,
    });
    const objects = (opts.plugins ?? []).map((o) => objectToDescriptor(o, corePoints));
    for (const o of objects) {
      const clash = discovered.find((d) => d.id === o.id);
      if (clash) throw new NutchError('NUTCH_PLUGIN_DUPLICATE_ID', `Plugin id "${o.id}" is declared twice: ${clash.manifestPath} and a plugin object passed to createNutch().`, { plugin: o.id });
    }
    this.descriptors = [...discovered, ...objects];
    for (const d of this.descriptors) opts.conf.declare(d.config, d.id, 'plugin', d.id);

    const includes = effectiveIncludes(opts.conf);
    this.unmatchedIncludes = checkIncludes(includes, this.descriptors.map((d) => d.id));
    const replacements = new Map<string, string[]>();
    const includesFrom = opts.conf.sourceOf('plugin.includes');
    for (const u of this.unmatchedIncludes) {
      if (opts.reportIncludes !== false) this.log.warn(describeUnmatched(u, includesFrom ? describeSource(includesFrom) : 'default'), { property: 'plugin.includes', code: 'NUTCH_PLUGIN_NOT_FOUND' });
      for (const id of u.activate) replacements.set(id, [...(replacements.get(id) ?? []), u.alternative]);
    }
    this.activation = resolveActivation(this.descriptors, {
      includes,
      replacements,
      excludes: opts.conf.getString('plugin.excludes'),
      autoActivation: opts.conf.getBoolean('plugin.auto-activation', true),
      hostVersion: opts.hostVersion,
    });
    for (const d of this.descriptors) {
      const a = this.activation.get(d.id)!;
      if (!a.active && (a.reason === 'missing-dependency' || a.reason === 'cycle' || a.reason === 'incompatible-host')) {
        this.log.warn(`Plugin ${d.id} not activated: ${describeActivation(a).replace(/^inactive: /, '')}`, { plugin: d.id });
      }
    }
    this.registerExtensions();
  }

  private crawlerContainer(): Promise<DependencyContainer> {
    this.container ??= (async () => {
      await import('reflect-metadata');
      const { container: root } = await import('tsyringe');
      const c = root.createChildContainer();
      c.register(CONFIGURATION, { useValue: this.conf });
      c.register(LOGGER, { useValue: this.log });
      return c;
    })();
    return this.container;
  }

  private registerExtensions(): void {
    const active = this.descriptors.filter((d) => this.activation.get(d.id)!.active);
    for (const d of active) for (const p of d.extensionPoints) if (!this.points.has(p.id)) this.points.set(p.id, { id: p.id, methods: [], workerOnly: false });
    const seen = new Map<string, ExtensionDescriptor>();
    for (const d of active) {
      for (const ext of d.extensions) {
        if (!this.points.has(ext.point)) {
          const near = closestName(ext.point, this.points.keys());
          // A plugin object is code the app compiled against the point types: an unknown point is a bug
          // to fail on, not a manifest to skip.
          if (d.source === 'object') throw unknownPoint(`Plugin object "${d.id}": extension ${ext.id}`, ext.point, near, { plugin: d.id, extension: ext.id });
          const reason = `extension point "${ext.point}" is not declared by core or any active plugin${near ? ` (did you mean "${near}"?)` : ''}`;
          this.skippedExtensions.push({ extension: ext.id, plugin: d.id, point: ext.point, reason });
          this.log.warn(`Plugin ${d.id}: extension ${ext.id} skipped: ${reason}`, { plugin: d.id, code: 'NUTCH_PLUGIN_UNKNOWN_POINT' });
          continue;
        }
        const prev = seen.get(ext.id);
        if (prev) {
          throw new NutchError('NUTCH_PLUGIN_DUPLICATE_EXTENSION', `Extension id "${ext.id}" is declared by plugin ${prev.pluginId} and by plugin ${d.id}. Extension ids are global: rename one.`, { plugin: d.id, extension: ext.id });
        }
        seen.set(ext.id, ext);
        const list = this.byPoint.get(ext.point) ?? [];
        list.push(ext);
        this.byPoint.set(ext.point, list);
      }
    }
    for (const list of this.byPoint.values()) list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  descriptor(id: string): PluginDescriptor | undefined {
    return this.descriptors.find((d) => d.id === id);
  }

  isActive(pluginId: string): boolean {
    return this.activation.get(pluginId)?.active ?? false;
  }

  pointIds(): string[] {
    return [...this.points.keys()];
  }

  /**
   * Active extensions of a point, by id. Through its typed handle (`ExtensionPoints.URLFilter`) the
   * descriptors carry the implementation type, and getInstance() of one returns that type; a string id
   * (a point declared by a third-party plugin) gives untyped descriptors.
   */
  getExtensions<T>(point: PointToken<T>): readonly ExtensionDescriptor<T>[];
  getExtensions(point: string): readonly ExtensionDescriptor<any>[];
  getExtensions(point: PointToken<unknown> | string): readonly ExtensionDescriptor<any>[] {
    return this.byPoint.get(typeof point === 'string' ? point : point.id) ?? [];
  }

  /** The active extension of `point` whose id or alias is `name`. */
  findExtension<T>(point: PointToken<T>, name: string): ExtensionDescriptor<T> | undefined;
  findExtension(point: string, name: string): ExtensionDescriptor<any> | undefined;
  findExtension(point: PointToken<unknown> | string, name: string): ExtensionDescriptor<any> | undefined {
    return this.getExtensions(typeof point === 'string' ? point : point.id).find((e) => matchesName(e, name));
  }

  /** Where an extension id or alias names an extension of an inactive plugin, say why it is inactive. */
  whyUnavailable(name: string): string {
    for (const d of this.descriptors) {
      const ext = d.extensions.find((e) => matchesName(e, name));
      if (ext) {
        const a = this.activation.get(d.id)!;
        if (!a.active) return `it belongs to plugin ${d.id}, ${describeActivation(a)}`;
        const skipped = this.skippedExtensions.find((s) => s.extension === ext.id);
        if (skipped) return `it was skipped: ${skipped.reason}`;
        return `it extends ${ext.point}`;
      }
    }
    const nutch = replacementForClass(name);
    if (nutch) return `it belongs to Nutch's ${replacementName(nutch)}, which nutch-ts does not have: ${nutch.advice}`;
    return 'no discovered plugin declares it';
  }

  /** The instance of an extension: imports the module, starts the plugin (dependencies first), creates it once. */
  getInstance<T>(ext: ExtensionDescriptor<T>): Promise<T> {
    if (this.closed) return Promise.reject(new NutchError('NUTCH_CLOSED', `The crawler is closed; cannot create extension ${ext.id}.`, { extension: ext.id }));
    let p = this.instances.get(ext.id);
    if (!p) {
      p = this.createInstance(ext);
      this.instances.set(ext.id, p);
      p.catch(() => this.instances.delete(ext.id));
    }
    return p as Promise<T>;
  }

  /** A fresh, uncached instance: IndexWriters open one per writer of index-writers.json, as Nutch. */
  newInstance<T>(ext: ExtensionDescriptor<T>): Promise<T> {
    if (this.closed) return Promise.reject(new NutchError('NUTCH_CLOSED', `The crawler is closed; cannot create extension ${ext.id}.`, { extension: ext.id }));
    return this.createInstance(ext) as Promise<T>;
  }

  private async createInstance(ext: ExtensionDescriptor): Promise<unknown> {
    const d = this.descriptor(ext.pluginId)!;
    await this.startPlugin(d.id);
    const mod = await this.loadModule(d);
    let impl: unknown = mod.definition ? mod.definition.extensions[ext.implementation] : mod.exports[ext.implementation];
    if (mod.definition && isPointed(impl)) {
      if (impl.point !== ext.point) {
        throw new NutchError(
          'NUTCH_PLUGIN_POINT_MISMATCH',
          `Plugin ${d.id}: the manifest declares extension ${ext.id} for ${ext.point}, but definePlugin() gives "${ext.implementation}" as a ${impl.point}${d.manifestPath ? ` (${d.manifestPath})` : ''}. Make the two agree.`,
          { plugin: d.id, extension: ext.id, point: ext.point, file: d.manifestPath },
        );
      }
      impl = impl.implementation;
    }
    if (impl === undefined) {
      const available = mod.definition ? Object.keys(mod.definition.extensions) : Object.keys(mod.exports).filter((k) => k !== 'default');
      throw new NutchError(
        'NUTCH_PLUGIN_EXPORT_NOT_FOUND',
        `Plugin ${d.id}: ${d.mainPath ?? 'plugin object'} has no export "${ext.implementation}" for extension ${ext.id} (${ext.point}). Exports: ${available.join(', ') || 'none'}.`,
        { plugin: d.id, extension: ext.id, point: ext.point, file: d.mainPath },
      );
    }
    const spec = this.points.get(ext.point)!;
    return instantiate(await this.pluginContainer(d), ext, impl, this.context(d, ext.parameters), spec.methods);
  }

  private context(d: PluginDescriptor, parameters: Record<string, string>): PluginContext {
    return {
      conf: this.conf,
      log: this.log.child({ plugin: d.id }),
      plugin: { id: d.id, version: d.version, root: d.root },
      parameters: Object.freeze({ ...parameters }),
    };
  }

  /**
   * The plugin-wide context of this crawler: the same object goes to start(ctx), stop(ctx) and the
   * plugin's container, so a plugin can keep per-crawler state keyed by it (a WeakMap), even though
   * its module — and a definePlugin object — is shared by every crawler in the process.
   */
  private pluginContext(d: PluginDescriptor): PluginContext {
    let ctx = this.pluginContexts.get(d.id);
    if (!ctx) {
      ctx = this.context(d, {});
      this.pluginContexts.set(d.id, ctx);
    }
    return ctx;
  }

  private pluginContainer(d: PluginDescriptor): Promise<DependencyContainer> {
    let c = this.pluginContainers.get(d.id);
    if (!c) {
      c = this.crawlerContainer().then((parent) => {
        const child = parent.createChildContainer();
        child.register(PLUGIN_CONTEXT, { useValue: this.pluginContext(d) });
        return child;
      });
      this.pluginContainers.set(d.id, c);
    }
    return c;
  }

  private loadModule(d: PluginDescriptor): Promise<PluginModule> {
    let p = this.modules.get(d.id);
    if (!p) {
      p = this.importModule(d);
      this.modules.set(d.id, p);
    }
    return p;
  }

  private async importModule(d: PluginDescriptor): Promise<PluginModule> {
    if (d.definition) return { exports: {}, definition: d.definition };
    let exports: Record<string, unknown>;
    try {
      exports = (await import(pathToFileURL(d.mainPath!).href)) as Record<string, unknown>;
    } catch (err) {
      throw new NutchError(
        'NUTCH_PLUGIN_MODULE_NOT_FOUND',
        `Plugin ${d.id}: cannot import main module ${d.mainPath} (declared in ${d.manifestPath}): ${errorMessage(err)}`,
        { plugin: d.id, file: d.mainPath },
        { cause: err },
      );
    }
    const definition = Object.values(exports).find(isPluginDefinition);
    return { exports, definition };
  }

  /** Starts a plugin after its dependencies; a start() that throws fails with NUTCH_PLUGIN_START_FAILED. */
  startPlugin(id: string): Promise<void> {
    let p = this.starting.get(id);
    if (!p) {
      p = this.doStart(id);
      this.starting.set(id, p);
    }
    return p;
  }

  private async doStart(id: string): Promise<void> {
    const d = this.descriptor(id)!;
    for (const dep of d.requires) await this.startPlugin(dep);
    const mod = await this.loadModule(d).catch((err) => {
      throw isNutchError(err) ? err : new NutchError('NUTCH_PLUGIN_MODULE_NOT_FOUND', errorMessage(err), { plugin: id });
    });
    if (mod.definition?.start) {
      try {
        await mod.definition.start(this.pluginContext(d));
      } catch (err) {
        throw new NutchError(
          'NUTCH_PLUGIN_START_FAILED',
          `Plugin ${id} failed to start: ${errorMessage(err)}. Nothing was written; fix the plugin or its configuration, or leave it out of plugin.includes.`,
          { plugin: id },
          { cause: err },
        );
      }
    }
    this.started.push(id);
    this.log.debug(`Plugin ${id} started`, { plugin: id });
  }

  /** Plugin ids started so far, in start order. */
  startedPlugins(): readonly string[] {
    return this.started;
  }

  /** The order active plugins start in (dependencies first). */
  startOrder(): string[] {
    return startOrder(this.descriptors, this.activation as Map<string, Activation>);
  }

  /** Stops started plugins in reverse start order; errors are logged, every plugin still gets its stop(). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.starting.values()]);
    for (const id of [...this.started].reverse()) {
      const mod = await this.modules.get(id);
      if (!mod?.definition?.stop) continue;
      try {
        await mod.definition.stop(this.pluginContext(this.descriptor(id)!));
      } catch (err) {
        this.log.error(`Plugin ${id} failed to stop: ${errorMessage(err)}`, { plugin: id, code: 'NUTCH_PLUGIN_STOP_FAILED' });
      }
    }
    this.started.length = 0;
    (await this.container)?.clearInstances();
  }
}

/**
 * plugin.includes, plus each entry of plugin.includes.add as one more alternative: one npm plugin is
 * enabled without copying the default list (`"plugin.includes.add": ["nutch-urlfilter-example"]`).
 */
export function effectiveIncludes(conf: Configuration): string {
  const base = conf.getString('plugin.includes');
  const added = conf.getStrings('plugin.includes.add');
  if (!added.length) return base;
  return [base, ...added].filter((p) => p !== '').map((p) => `(?:${p})`).join('|');
}
