/**
 * `nutch-ts`: the embedding SDK — createNutch() for apps, plus the context, configuration and
 * plugin types for tools built on the stages.
 */
import 'reflect-metadata';
export { createNutch, type Nutch, type CreateNutchOptions, type CrawlOptions, type CrawlRun, type CallOptions } from './create-nutch.js';
export type { SearchHit } from '../core/extension-points/index-writer.js';
export type { CrawlDbReads, LinkDbReads, SegmentReads, CrawlDbDumpOptions, CrawlDbStats, ScoredUrl, SegmentListing, SegmentRecords } from './crawl-readers.js';
export { createContext, checkAgentName, type NutchContext, type CreateContextOptions } from '../core/crawl/context.js';
export { loadConfiguration, resolveConfFile, type LoadConfigurationOptions } from '../core/config/load-configuration.js';
export { Configuration, describeSource, type ValueSource, type LayerName } from '../core/config/configuration.js';
export type { PropertyDefinition, PropertyType } from '../core/config/property-types.js';
export { PluginRepository } from '../core/plugin/plugin-repository.js';
export type { PluginObject, PluginObjectExtension } from '../core/extension-points/typed-plugin.js';
export { describeActivation, type Activation } from '../core/plugin/activation.js';
export { ExtensionPoints } from '../core/extension-points/extension-point.js';
export { NutchError, isNutchError, ErrorCodes, type ErrorCode } from '../core/errors.js';
export { createConsoleLogger, silentLogger, type Logger, type LogLevel } from '../core/log.js';
export type { ProgressEvent, Counters, StageOptions, StageName } from '../core/crawl/progress.js';
export * from '../core/model/index.js';
export {
  COUNTER_NAMES,
  type StageCounters, type InjectCounters, type GenerateCounters, type FetchCounters, type ParseCounters, type UpdateDbCounters,
  type InvertLinksCounters, type IndexCounters, type DedupCounters, type CleanCounters, type UpdateHostDbCounters, type SitemapCounters, type CrawlSummaryCounters,
} from '../core/crawl/counter-names.js';
