/**
 * `nutch-ts/plugin`: everything a plugin author imports — definePlugin, the extension-point
 * interfaces, the model types and helpers, the configuration getters. No decorators, no tsyringe.
 */
export { definePlugin, type PluginDefinitionInput, type TypedExtension, type ImplementationOf, type PluginObject, type PluginObjectExtension } from '../core/extension-points/typed-plugin.js';
export type { PluginDefinition } from '../core/plugin/define-plugin.js';
export type { PluginContext, PluginInfo, Implementation } from '../core/plugin/plugin-context.js';
export type { Configuration } from '../core/config/configuration.js';
export { resolveConfFile } from '../core/config/load-configuration.js';
export { resolveURL } from '../core/url/resolve-url.js';
export { hostOf, domainOf, publicSuffixOf, hostParts, type HostParts } from '../core/url/url-parts.js';
export { chooseRepr } from '../core/url/choose-repr.js';
export { hostSpan, type HostSpan } from '../core/url/host-span.js';
export type { Logger } from '../core/log.js';
export { NutchError, isNutchError, type ErrorCode } from '../core/errors.js';
export * from '../core/model/index.js';
export type { URLNormalizer, NormalizerScope } from '../core/extension-points/url-normalizer.js';
export { NormalizerScopes } from '../core/extension-points/url-normalizer.js';
export type { URLFilter } from '../core/extension-points/url-filter.js';
export type { URLExemptionFilter } from '../core/extension-points/url-exemption-filter.js';
export type { ScoringFilter, ScoringTarget } from '../core/extension-points/scoring-filter.js';
export type { Protocol, RobotRules } from '../core/extension-points/protocol.js';
export { contentCeiling, effectiveContentLimit, CONTENT_CEILING_PROPERTY } from '../core/protocol/content-ceiling.js';
export type { ContentLease } from '../core/protocol/content-budget.js';
export { statusForCode } from '../core/protocol/http-status.js';
export { agentString, baseHeaders, headersToMetadata, canonicalHeaderName, firstHeader } from '../core/protocol/http-headers.js';
export { AddressPolicy, bareHost, isAddressDenied, ADDRESS_PRESETS } from '../core/protocol/address-policy.js';
export { HttpDispatchers } from '../core/protocol/http-dispatchers.js';
export { IdleThreads, type IdleThreadsOptions } from '../core/idle-threads.js';
export { RobotRulesParser, RobotRulesSet, parseRobotsTxt, robotsAgentNames, ROBOTS_MAX_BYTES, type RobotsFetch, type RobotsResponse } from '../core/protocol/robots/index.js';
export type { Parser, ParseContext, ParsePluginsMapping } from '../core/extension-points/parser.js';
export type { HtmlParseFilter, HtmlParseFilters, HTMLMetaTags } from '../core/extension-points/html-parse-filter.js';
export type { IndexingFilter, IndexingContext } from '../core/extension-points/indexing-filter.js';
export type { IndexWriter, IndexWriterParams, SearchHit } from '../core/extension-points/index-writer.js';
export type { FetchSchedule } from '../core/extension-points/fetch-schedule.js';
export { FetchScheduleState } from '../core/extension-points/fetch-schedule.js';
export { AbstractFetchSchedule, SECONDS_PER_DAY } from '../core/extension-points/abstract-fetch-schedule.js';
export type { Signature } from '../core/extension-points/signature.js';
export { ExtensionPoints, type ExtensionPoint, type ExtensionPointId, type ExtensionPointTypes } from '../core/extension-points/extension-point.js';
export { decodeXmlText } from '../core/parse/decode-xml.js';
export { detectContentType, resolveContentType, isGenericContentType, baseContentType } from '../core/parse/content-type-sniffer.js';
