/**
 * Builds each extension point's composite from the active extensions, applying the ordering rules
 * once: order lists take extension ids or aliases (array, or Nutch's whitespace-separated string);
 * a name that matches no active extension is logged with the reason and ignored, as Nutch does.
 */
import { NutchError, errorMessage } from '../errors.js';
import type { Configuration } from '../config/configuration.js';
import type { Logger } from '../log.js';
import type { PluginRepository } from '../plugin/plugin-repository.js';
import type { ExtensionDescriptor } from '../plugin/plugin-descriptor.js';
import { splitList } from '../config/property-types.js';
import { ExtensionPoints, type ExtensionPoint } from './extension-point.js';
import { URLNormalizers, type NormalizerScope, type URLNormalizer } from './url-normalizer.js';
import { URLFilters, type URLFilter } from './url-filter.js';
import { URLExemptionFilters, type URLExemptionFilter } from './url-exemption-filter.js';
import { ScoringFilters, type ScoringFilter } from './scoring-filter.js';
import { ProtocolFactory, type Protocol } from './protocol.js';
import { HtmlParseFilters, type HtmlParseFilter } from './html-parse-filter.js';
import { IndexingFilters, type IndexingFilter } from './indexing-filter.js';
import type { FetchSchedule } from './fetch-schedule.js';
import type { Signature } from './signature.js';
import type { ParserCandidate } from './parser.js';

/** How an order list combines with the active extensions. */
type OrderMode = 'only-listed' | 'listed-first';

export class ExtensionChains {
  private readonly warned = new Set<string>();

  constructor(readonly repo: PluginRepository, private readonly conf: Configuration, private readonly log: Logger) {}

  /** Error sink for synchronous per-URL chains: logged with plugin, point and URL, and the URL dropped. */
  private recorder(point: ExtensionPoint<unknown>) {
    return (extensionId: string, url: string, err: unknown) => {
      const ext = this.repo.getExtensions(point).find((e) => e.id === extensionId);
      this.log.warn(`${point.id} ${extensionId} threw on ${url.slice(0, 300)}: ${errorMessage(err)}`, {
        code: 'NUTCH_EXTENSION_FAILED', plugin: ext?.pluginId, point: point.id, extension: extensionId, url: url.slice(0, 300),
      });
    };
  }

  private orderList(property: string): string[] {
    if (!this.conf.isDeclared(property) && !this.conf.has(property)) return [];
    const v = this.conf.get(property);
    if (Array.isArray(v)) return v.map(String);
    return typeof v === 'string' ? splitList(v) : [];
  }

  /** The ordered extensions of a point. */
  ordered<T>(point: ExtensionPoint<T>, order: string[], mode: OrderMode, property: string): ExtensionDescriptor<T>[] {
    const all = [...this.repo.getExtensions(point)];
    if (order.length === 0) return all;
    const out: ExtensionDescriptor<T>[] = [];
    for (const name of order) {
      const ext = all.find((e) => e.id === name || e.aliases.includes(name));
      if (!ext) {
        this.warnInactive(property, point.id, name);
        continue;
      }
      if (!out.includes(ext)) out.push(ext);
    }
    if (mode === 'listed-first') for (const ext of all) if (!out.includes(ext)) out.push(ext);
    return out;
  }

  /** Once per property and name: the name is not an active extension of the point, and why. */
  private warnInactive(property: string, point: string, name: string): void {
    const key = `${property}:${name}`;
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.log.warn(`${property} names "${name}", which is not an active ${point} extension (${this.repo.whyUnavailable(name)}); ignored.`, { property, point, extension: name, code: 'NUTCH_EXTENSION_NOT_FOUND' });
  }

  private async instances<T>(exts: readonly ExtensionDescriptor<T>[]): Promise<{ extensionId: string; instance: T }[]> {
    const out: { extensionId: string; instance: T }[] = [];
    for (const ext of exts) out.push({ extensionId: ext.id, instance: await this.repo.getInstance(ext) });
    return out;
  }

  /** URLNormalizer chain of a scope (Nutch's URLNormalizers). */
  normalizerChain(scope: NormalizerScope): ExtensionDescriptor<URLNormalizer>[] {
    const scoped = this.orderList(`urlnormalizer.order.${scope}`);
    const order = scoped.length ? scoped : this.orderList('urlnormalizer.order');
    let exts = this.ordered(ExtensionPoints.URLNormalizer, order, 'listed-first', scoped.length ? `urlnormalizer.order.${scope}` : 'urlnormalizer.order');
    const restrict = this.conf.has(`urlnormalizer.scope.${scope}`) ? this.orderList(`urlnormalizer.scope.${scope}`) : [];
    if (restrict.length) {
      for (const name of restrict) if (!exts.some((e) => e.id === name || e.aliases.includes(name))) this.warnInactive(`urlnormalizer.scope.${scope}`, ExtensionPoints.URLNormalizer.id, name);
      exts = exts.filter((e) => restrict.some((n) => e.id === n || e.aliases.includes(n)));
    }
    return exts;
  }

  async urlNormalizers(scope: NormalizerScope = 'default', only?: string): Promise<URLNormalizers> {
    let exts = this.normalizerChain(scope);
    if (only) exts = [this.requireExtension(ExtensionPoints.URLNormalizer, only)];
    const steps = (await this.instances(exts)).map(({ extensionId, instance }) => ({ extensionId, normalizer: instance }));
    return new URLNormalizers(scope, steps, this.conf.getInt('urlnormalizer.loop.count', 1), this.recorder(ExtensionPoints.URLNormalizer));
  }

  filterChain(): ExtensionDescriptor<URLFilter>[] {
    return this.ordered(ExtensionPoints.URLFilter, this.orderList('urlfilter.order'), 'only-listed', 'urlfilter.order');
  }

  async urlFilters(only?: string): Promise<URLFilters> {
    const exts = only ? [this.requireExtension(ExtensionPoints.URLFilter, only)] : this.filterChain();
    const steps = (await this.instances(exts)).map(({ extensionId, instance }) => ({ extensionId, filter: instance }));
    return new URLFilters(steps, this.recorder(ExtensionPoints.URLFilter));
  }

  async urlExemptionFilters(): Promise<URLExemptionFilters> {
    const steps = (await this.instances(this.repo.getExtensions(ExtensionPoints.URLExemptionFilter))).map(({ extensionId, instance }) => ({ extensionId, filter: instance }));
    return new URLExemptionFilters(steps, this.recorder(ExtensionPoints.URLExemptionFilter));
  }

  scoringChain(): ExtensionDescriptor<ScoringFilter>[] {
    return this.ordered(ExtensionPoints.ScoringFilter, this.orderList('scoring.filter.order'), 'only-listed', 'scoring.filter.order');
  }

  async scoringFilters(): Promise<ScoringFilters> {
    const steps = (await this.instances(this.scoringChain())).map(({ extensionId, instance }) => ({ extensionId, filter: instance }));
    return new ScoringFilters(steps, (extensionId, url, err) => {
      throw this.tag(ExtensionPoints.ScoringFilter.id, extensionId, url, err);
    });
  }

  htmlParseFilterChain(): ExtensionDescriptor<HtmlParseFilter>[] {
    return this.ordered(ExtensionPoints.HtmlParseFilter, this.orderList('htmlparsefilter.order'), 'only-listed', 'htmlparsefilter.order');
  }

  async htmlParseFilters(): Promise<HtmlParseFilters> {
    const steps = (await this.instances(this.htmlParseFilterChain())).map(({ extensionId, instance }) => ({ extensionId, filter: instance }));
    return new HtmlParseFilters(steps, (extensionId, url, err) => {
      throw this.tag(ExtensionPoints.HtmlParseFilter.id, extensionId, url, err);
    });
  }

  indexingChain(): ExtensionDescriptor<IndexingFilter>[] {
    return this.ordered(ExtensionPoints.IndexingFilter, this.orderList('indexingfilter.order'), 'only-listed', 'indexingfilter.order');
  }

  async indexingFilters(): Promise<IndexingFilters> {
    const steps = (await this.instances(this.indexingChain())).map(({ extensionId, instance }) => ({ extensionId, filter: instance }));
    return new IndexingFilters(steps, (extensionId, url, err) => {
      throw this.tag(ExtensionPoints.IndexingFilter.id, extensionId, url, err);
    });
  }

  /** Protocol selection; protocols are instantiated on first use of their scheme. */
  protocolFactory(): ProtocolFactory {
    const candidates = this.repo.getExtensions(ExtensionPoints.Protocol).map((ext) => ({
      extensionId: ext.id,
      schemes: (ext.parameters.protocolName ?? '').split(/[\s,]+/).filter(Boolean).map((s) => s.toLowerCase()),
      get: () => this.repo.getInstance(ext),
    }));
    const factory = new ProtocolFactory(candidates, this.orderList('host-protocol-mapping'));
    for (const id of factory.mappingTargets()) if (!candidates.some((c) => c.extensionId === id)) this.warnInactive('host-protocol-mapping', ExtensionPoints.Protocol.id, id);
    return factory;
  }

  /** Instantiates (and so starts) every Protocol extension: the fetcher does it before its first request. */
  async startProtocols(): Promise<void> {
    await Promise.all(this.repo.getExtensions(ExtensionPoints.Protocol).map((ext) => this.repo.getInstance(ext)));
  }

  parserCandidates(): ParserCandidate[] {
    return this.repo.getExtensions(ExtensionPoints.Parser).map((ext) => ({
      extensionId: ext.id,
      aliases: ext.aliases,
      contentTypes: (ext.parameters.contentType ?? '').split(/[\s,]+/).filter(Boolean).map((s) => s.toLowerCase()),
    }));
  }

  /** The single FetchSchedule named by db.fetch.schedule.class (a bad name rejects, never throws synchronously). */
  async fetchSchedule(): Promise<FetchSchedule> {
    return this.repo.getInstance(this.selectByClass(ExtensionPoints.FetchSchedule, 'db.fetch.schedule.class'));
  }

  /** The single Signature named by db.signature.class. */
  async signature(): Promise<Signature> {
    return this.repo.getInstance(this.selectByClass(ExtensionPoints.Signature, 'db.signature.class'));
  }

  selectByClass<T>(point: ExtensionPoint<T>, property: string): ExtensionDescriptor<T> {
    const name = this.conf.getString(property);
    const ext = this.repo.findExtension(point, name);
    if (!ext) {
      throw new NutchError('NUTCH_EXTENSION_NOT_FOUND', `${property} = "${name}" matches no active ${point.id} extension (${this.repo.whyUnavailable(name)}). Active: ${this.repo.getExtensions(point).map((e) => e.id).join(', ') || 'none'}.`, { property, point: point.id });
    }
    return ext;
  }

  requireExtension<T>(point: ExtensionPoint<T>, name: string): ExtensionDescriptor<T> {
    const ext = this.repo.findExtension(point, name);
    if (!ext) {
      throw new NutchError('NUTCH_EXTENSION_NOT_FOUND', `No active ${point.id} extension "${name}" (${this.repo.whyUnavailable(name)}). Active: ${this.repo.getExtensions(point).map((e) => e.id).join(', ') || 'none'}.`, { point: point.id, extension: name });
    }
    return ext;
  }

  /** Tags an extension's error with plugin, point and URL, keeping the original as cause. */
  tag(point: string, extensionId: string, url: string, err: unknown): NutchError {
    const ext = this.repo.getExtensions(point).find((e) => e.id === extensionId);
    return new NutchError('NUTCH_EXTENSION_FAILED', `${point} ${extensionId} (plugin ${ext?.pluginId ?? '?'}) failed on ${url.slice(0, 300)}: ${errorMessage(err)}`, { plugin: ext?.pluginId, point, extension: extensionId, url }, { cause: err });
  }

  /** Every point's effective chain, without instantiating anything: for startup logs and `nutch plugin list`. */
  effectiveChains(): Record<string, string[]> {
    const ids = (exts: readonly ExtensionDescriptor[]) => exts.map((e) => e.id);
    const chains: Record<string, string[]> = {
      URLNormalizer: ids(this.normalizerChain('default')),
      URLFilter: ids(this.filterChain()),
      URLExemptionFilter: ids(this.repo.getExtensions('URLExemptionFilter')),
      ScoringFilter: ids(this.scoringChain()),
      Protocol: ids(this.repo.getExtensions('Protocol')),
      Parser: ids(this.repo.getExtensions('Parser')),
      HtmlParseFilter: ids(this.htmlParseFilterChain()),
      IndexingFilter: ids(this.indexingChain()),
      IndexWriter: ids(this.repo.getExtensions('IndexWriter')),
      FetchSchedule: this.safeSelect('FetchSchedule', 'db.fetch.schedule.class'),
      Signature: this.safeSelect('Signature', 'db.signature.class'),
    };
    for (const point of this.repo.pointIds()) if (!(point in chains)) chains[point] = ids(this.repo.getExtensions(point));
    return chains;
  }

  private safeSelect(point: string, property: string): string[] {
    const ext = this.repo.findExtension(point, this.conf.getString(property));
    return ext ? [ext.id] : [];
  }

  /** One log line per extension point with its effective chain (as Scrapy's "Enabled …"). */
  logChains(): void {
    for (const [point, chain] of Object.entries(this.effectiveChains())) this.log.info(`${point}: [${chain.join(', ')}]`, { point });
  }
}
