/**
 * `nutch-ts/testing`: run one plugin's extensions the way the stages do, without a crawl. A test builds
 * a context whose `pluginFolders` name the plugin's folder and whose `plugin.includes` activates it,
 * then calls the helper of the point: the plugin is started (its `requires` first), its errors come
 * back tagged as in a stage, and what it returns is what the stage would receive.
 */
import { createContext, type CreateContextOptions, type NutchContext } from '../core/crawl/context.js';
import { createMemoryLogger, type MemoryLogger } from '../core/log.js';
import { NutchError } from '../core/errors.js';
import { ExtensionPoints, type ExtensionPointId, type ExtensionPointTypes } from '../core/extension-points/extension-point.js';
import type { NormalizerScope } from '../core/extension-points/url-normalizer.js';
import type { ScoringFilters } from '../core/extension-points/scoring-filter.js';
import type { ProtocolOutput } from '../core/model/protocol-status.js';
import type { IndexWriter, IndexWriterParams } from '../core/extension-points/index-writer.js';
import { ParseUtil, type ParseOutcome } from '../core/parse/parse-util.js';
import { startDocument } from '../core/crawl/index/build-document.js';
import { createContent, ContentMeta, type Content } from '../core/model/content.js';
import { createCrawlDatum, CrawlStatus, type CrawlDatum } from '../core/model/crawl-datum.js';
import { createParseData, ParseStatusCode, type Parse, type ParseData } from '../core/model/parse.js';
import type { Inlinks } from '../core/model/inlinks.js';
import type { NutchDocument } from '../core/model/nutch-document.js';
import type { Metadata } from '../core/model/metadata.js';

export type { NutchContext } from '../core/crawl/context.js';
export type { MemoryLogger } from '../core/log.js';
export type { ParseOutcome } from '../core/parse/parse-util.js';

export interface TestContextOptions extends CreateContextOptions {}

export type TestContext = NutchContext & { log: MemoryLogger };

/** A context with a memory logger (see `ctx.log.records`). Close it with `await ctx.close()`. */
export function createTestContext(opts: TestContextOptions = {}): TestContext {
  const log = createMemoryLogger();
  const ctx = createContext({ logger: log, ...opts });
  return Object.assign(ctx, { log: opts.logger ? (opts.logger as MemoryLogger) : log });
}

/**
 * The instance of one extension, created as a stage creates it (plugin started first, cached per
 * context). Without `extensionId`, the point must have exactly one active extension.
 */
export async function getExtension<P extends ExtensionPointId>(ctx: NutchContext, point: P, extensionId?: string): Promise<ExtensionPointTypes[P]> {
  const all = ctx.plugins.getExtensions(point);
  const ext = extensionId !== undefined ? ctx.plugins.findExtension(point, extensionId) : all.length === 1 ? all[0] : undefined;
  if (!ext) {
    const why = extensionId !== undefined ? `no active ${point} extension "${extensionId}" (${ctx.plugins.whyUnavailable(extensionId)})` : `${all.length} active ${point} extensions; name one`;
    throw new NutchError('NUTCH_EXTENSION_NOT_FOUND', `nutch-ts/testing: ${why}. Active: ${all.map((e) => e.id).join(', ') || 'none'}.`, { point, extension: extensionId });
  }
  return ctx.plugins.getInstance<ExtensionPointTypes[P]>(ext);
}

/** Runs URLs through one URL filter (or the whole chain when `extensionId` is omitted); null = rejected. */
export async function runURLFilter(ctx: NutchContext, urls: string[], extensionId?: string): Promise<(string | null)[]> {
  const filters = await ctx.extensions.urlFilters(extensionId);
  return urls.map((u) => filters.filter(u));
}

/** Runs URLs through one URL normalizer (or the scope's chain when `extensionId` is omitted); null = dropped. */
export async function runURLNormalizer(ctx: NutchContext, urls: string[], opts: { extensionId?: string; scope?: NormalizerScope } = {}): Promise<(string | null)[]> {
  const normalizers = await ctx.extensions.urlNormalizers(opts.scope ?? 'default', opts.extensionId);
  return urls.map((u) => normalizers.normalize(u));
}

/** Asks the URL exemption filters, as the fetcher and updatedb do, whether `toUrl` is exempt when linked from `fromUrl`. */
export async function runURLExemptionFilter(ctx: NutchContext, pairs: [fromUrl: string, toUrl: string][]): Promise<boolean[]> {
  const filters = await ctx.extensions.urlExemptionFilters();
  return pairs.map(([from, to]) => filters.isExempted(from, to));
}

/** The ScoringFilter chain as the stages call it (injectedScore, distributeScoreToOutlinks, updateDbScore, indexerScore …). */
export function scoringFilters(ctx: NutchContext): Promise<ScoringFilters> {
  return ctx.extensions.scoringFilters();
}

/** A page to parse: a Content, or its parts (`body` as text or bytes, `contentType`, response headers). */
export type ParseInput = Content | { url: string; body: string | Uint8Array; contentType?: string; headers?: Metadata };

function toContent(input: ParseInput): Content {
  if ('content' in input) return input;
  const bytes = typeof input.body === 'string' ? new TextEncoder().encode(input.body) : input.body;
  const contentType = input.contentType ?? 'text/html';
  return createContent({ url: input.url, content: bytes, contentType, metadata: { [ContentMeta.CONTENT_TYPE]: [contentType], ...input.headers } });
}

/**
 * Parses a page exactly as a parse worker does (core/parse/parse-util.ts, here in the calling thread):
 * the parsers for the content type in parse-plugins.json order, first success wins, then the
 * HtmlParseFilter chain (run by HTML parsers) and the Signature. Returns the ParseResult, the signature
 * and the parser that succeeded.
 */
export async function runParser(ctx: NutchContext, input: ParseInput, opts: { contentType?: string } = {}): Promise<ParseOutcome> {
  const util = await ParseUtil.create(ctx.extensions, ctx.conf, ctx.log);
  return util.parse(toContent(input), opts.contentType);
}

/** An HtmlParseFilter runs inside the HTML parser: parses `html` as text/html and returns the canonical Parse the filters produced. */
export async function runHtmlParseFilter(ctx: NutchContext, url: string, html: string): Promise<Parse> {
  const outcome = await runParser(ctx, { url, body: html, contentType: 'text/html' });
  const parse = outcome.result.parses[url] ?? Object.values(outcome.result.parses)[0];
  if (!parse) throw new NutchError('NUTCH_PARSER_NOT_FOUND', `nutch-ts/testing: no parse of ${url} came back.`, { url });
  return parse;
}

/** What the index stage knows about a page; everything but `url` has a default. */
export interface IndexInput {
  url: string;
  /** The parse text (parse_text). */
  text?: string;
  /** The parse data (title, outlinks, metadata); `title` is a shortcut for its title. */
  parseData?: Partial<ParseData>;
  title?: string;
  dbDatum?: CrawlDatum | null;
  fetchDatum?: CrawlDatum | null;
  inlinks?: Inlinks | null;
  segment?: string;
}

/**
 * Builds the document as the index stage does (id, segment, digest, boost from the scoring filters)
 * and runs the IndexingFilter chain (`indexingfilter.order`) over it; null = dropped from the index.
 */
export async function runIndexingFilter(ctx: NutchContext, input: IndexInput): Promise<NutchDocument | null> {
  const parseData = createParseData({ status: { majorCode: ParseStatusCode.SUCCESS, minorCode: 0, args: [] }, title: input.title ?? '', ...input.parseData });
  const parse: Parse = { text: input.text ?? '', data: parseData, isCanonical: true };
  const fetchDatum = input.fetchDatum ?? createCrawlDatum({ status: CrawlStatus.STATUS_FETCH_SUCCESS, fetchTime: Date.now() });
  const dbDatum = input.dbDatum ?? null;
  const inlinks = input.inlinks ?? null;
  const doc = startDocument(input.url, input.segment ?? '20000101000000', parseData, dbDatum, fetchDatum);
  const scoring = await ctx.extensions.scoringFilters();
  doc.weight = scoring.indexerScore(input.url, doc, dbDatum, fetchDatum, parse, inlinks, 1.0);
  doc.fields.boost = [String(doc.weight)];
  const filters = await ctx.extensions.indexingFilters();
  return filters.filter(doc, { url: input.url, parse, dbDatum, fetchDatum, inlinks });
}

/**
 * Opens one IndexWriter extension with `params` (as index-writers.json would), writes the documents,
 * deletes the keys, commits and closes it, as the index stage does. Returns the (closed) instance, so
 * a test can check what it holds.
 */
export async function runIndexWriter(
  ctx: NutchContext,
  extensionId: string,
  actions: { write?: NutchDocument[]; delete?: string[] },
  params: Partial<IndexWriterParams> = {},
): Promise<IndexWriter> {
  const ext = ctx.plugins.findExtension(ExtensionPoints.IndexWriter.id, extensionId);
  if (!ext) throw new NutchError('NUTCH_EXTENSION_NOT_FOUND', `nutch-ts/testing: no active IndexWriter extension "${extensionId}" (${ctx.plugins.whyUnavailable(extensionId)}).`, { extension: extensionId });
  const writer = await ctx.plugins.newInstance<IndexWriter>(ext);
  await writer.open({ writerId: params.writerId ?? extensionId, parameters: params.parameters ?? {}, crawlDir: params.crawlDir });
  try {
    for (const doc of actions.write ?? []) await writer.write(doc);
    for (const key of actions.delete ?? []) await writer.delete(key);
    await writer.commit();
  } catch (err) {
    await (writer.abort ? writer.abort() : writer.close()).catch(() => {});
    throw err;
  }
  await writer.close();
  return writer;
}

/** Fetches a URL through the Protocol the fetcher would select for it (host-protocol-mapping, scheme). */
export async function runProtocol(ctx: NutchContext, url: string, datum: CrawlDatum = createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED })): Promise<ProtocolOutput> {
  const protocol = await ctx.extensions.protocolFactory().getProtocol(url);
  return protocol.getProtocolOutput(url, datum);
}

/** The FetchSchedule selected by db.fetch.schedule.class, as generate and updatedb call it. */
export function fetchSchedule(ctx: NutchContext): Promise<ExtensionPointTypes['FetchSchedule']> {
  return ctx.extensions.fetchSchedule();
}

/** The Signature selected by db.signature.class, computed over a page and its parse, as a parse worker does. */
export async function runSignature(ctx: NutchContext, content: ParseInput, parse: Parse): Promise<Uint8Array> {
  return (await ctx.extensions.signature()).calculate(toContent(content), parse);
}
