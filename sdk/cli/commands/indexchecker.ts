/**
 * `nutch indexchecker [-D k=v ...] [-dumpText] [-doIndex] [-json] [-crawlDir <dir>] <url>`, as Nutch's
 * IndexingFiltersChecker: fetches the URL through the Protocol chain, parses it in the parse worker
 * pool, builds the document as the index stage does (id, digest, boost, the IndexingFilters in
 * order) and prints each field value as `field :\tvalue` (values cut at 100 characters unless
 * -dumpText). -doIndex also sends the document to the writers of index-writers.json (embedded ones
 * store under -crawlDir, default the working directory). -json prints one object instead.
 */
import { resolve } from 'node:path';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, writeLine, type CliIO, type Command } from '../command.js';
import { NutchError, errorMessage, isNutchError } from '../../../core/errors.js';
import { checkAgentName, type NutchContext } from '../../../core/crawl/context.js';
import type { Content } from '../../../core/model/content.js';
import { CrawlStatus, createCrawlDatum, type CrawlDatum } from '../../../core/model/crawl-datum.js';
import { ProtocolStatusCode, protocolStatusName } from '../../../core/model/protocol-status.js';
import { ParseMeta, type Parse } from '../../../core/model/parse.js';
import type { IndexingFilters } from '../../../core/extension-points/indexing-filter.js';
import type { ScoringFilters } from '../../../core/extension-points/scoring-filter.js';
import type { FieldValue, NutchDocument } from '../../../core/model/nutch-document.js';
import { parsePoolOf } from '../../../core/parse/parsers.js';
import { toHex } from '../../../core/parse/parse-util.js';
import { sanitizeDocument, startDocument } from '../../../core/crawl/index/build-document.js';
import { openIndexWriters } from '../../../core/crawl/index/open-index-writers.js';

const usage = 'Usage: nutch indexchecker [-D k=v ...] [-dumpText] [-doIndex] [-json] [-crawlDir <dir>] <url>';

function show(v: FieldValue): string {
  return v instanceof Date ? v.toISOString() : String(v);
}

export const indexCheckerCommand: Command = {
  name: 'indexchecker',
  summary: 'fetch, parse and run the indexing filters on one URL, print the document',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-dumpText', '-doIndex', '-json'], values: ['-crawlDir'] }, usage);
    if (args.positional.length !== 1) throw new NutchError('NUTCH_USAGE', usage);
    const url = args.positional[0]!;
    const json = args.flags.has('-json');
    const out = (s: string) => writeLine(io.stdout, s);
    const ctx = cliContext(io, args.defines);
    try {
      if (/^https?:/i.test(url)) checkAgentName(ctx.conf);
      // the parse worker starts beside the fetch (see parsechecker)
      parsePoolOf(ctx).ready(1).catch(() => {});
      const indexingFilters = await ctx.extensions.indexingFilters();
      const scoring = await ctx.extensions.scoringFilters();
      if (!json) await out(`fetching: ${url}`);
      const datum = createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED });
      const content = await fetchContent(ctx, io, url, datum);
      if (!content) return ExitCode.FAILURE;
      if (!json) {
        await out(`parsing: ${url}`);
        await out(`contentType: ${content.contentType}`);
      }
      scoring.passScoreBeforeParsing(url, datum, content);
      const parsed = await parseContent(ctx, io, url, content);
      if (!parsed) return ExitCode.FAILURE;
      scoring.passScoreAfterParsing(url, content, parsed.parse);
      const built = await buildDocument(io, url, parsed, scoring, indexingFilters);
      if (built === 'failed') return ExitCode.FAILURE;
      if (!built) {
        if (json) await out(JSON.stringify({ url, discarded: true }));
        else await out('Document discarded by indexing filter');
        return ExitCode.OK;
      }
      await printDocument(out, built, { url, contentType: content.contentType, json, dumpText: args.flags.has('-dumpText') });
      if (args.flags.has('-doIndex')) {
        const chain = await indexDocument(ctx, built, url, resolve(io.cwd, args.values.get('-crawlDir') ?? '.'));
        if (!json) io.stderr.write(`Indexed ${url} with ${chain.join(', ')}\n`);
      }
      return ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};

/** Fetch: the URL through its Protocol; null (the status said on stderr) unless it gave content. */
async function fetchContent(ctx: NutchContext, io: CliIO, url: string, datum: CrawlDatum): Promise<Content | null> {
  const protocol = await ctx.extensions.protocolFactory().getProtocol(url);
  let output;
  try {
    output = await protocol.getProtocolOutput(url, datum, { signal: io.signal });
  } finally {
    await protocol.close?.().catch(() => undefined);
  }
  if (output.status.code !== ProtocolStatusCode.SUCCESS || !output.content) {
    io.stderr.write(`Fetch failed with protocol status: ${protocolStatusName(output.status.code)}(${output.status.code})${output.status.args.length ? `, args=[${output.status.args.join(', ')}]` : ''}\n`);
    return null;
  }
  return output.content;
}

/** Parse: in the parse worker pool; the parse of the URL itself (else the first), null when it failed. */
async function parseContent(ctx: NutchContext, io: CliIO, url: string, content: Content): Promise<{ parse: Parse; signature: Uint8Array | null | undefined } | null> {
  const outcome = await parsePoolOf(ctx).parse(content, {});
  const parse = outcome.result.parses[url] ?? Object.values(outcome.result.parses)[0];
  if (!parse || parse.data.status.majorCode !== 1) {
    io.stderr.write(`Parse failed for ${url}: ${parse?.data.status.args.join(', ') ?? 'no parse'}\n`);
    return null;
  }
  return { parse, signature: outcome.signature };
}

/**
 * The document as the index stage builds it (no segment: there is none), boosted by the
 * ScoringFilters, through the IndexingFilters; null when a filter discards it, 'failed' when one threw.
 */
async function buildDocument(io: CliIO, url: string, parsed: { parse: Parse; signature: Uint8Array | null | undefined }, scoring: ScoringFilters, indexingFilters: IndexingFilters): Promise<NutchDocument | null | 'failed'> {
  const { parse, signature } = parsed;
  if (signature) parse.data.contentMeta[ParseMeta.SIGNATURE] = [toHex(signature)];
  const fetchDatum = createCrawlDatum({ status: CrawlStatus.STATUS_FETCH_SUCCESS, fetchTime: Date.now(), signature: signature ?? null });
  let doc: NutchDocument | null = startDocument(url, '', parse.data, null, fetchDatum);
  delete doc.fields.segment;
  const boost = scoring.indexerScore(url, doc, null, fetchDatum, parse, null, 1.0);
  doc.weight = boost;
  doc.fields.boost = [String(boost)];
  try {
    doc = await indexingFilters.filter(doc, { url, parse, dbDatum: null, fetchDatum, inlinks: null });
  } catch (err) {
    io.stderr.write(`Error indexing ${url}: ${isNutchError(err) ? `${err.code}: ` : ''}${errorMessage(err)}\n`);
    return 'failed';
  }
  if (doc) sanitizeDocument(doc);
  return doc;
}

/** `field :\tvalue` lines (values cut at 100 characters unless -dumpText), or one JSON object with -json. */
async function printDocument(out: (s: string) => void | Promise<void>, doc: NutchDocument, o: { url: string; contentType: string; json: boolean; dumpText: boolean }): Promise<void> {
  if (o.json) {
    await out(JSON.stringify({ url: o.url, contentType: o.contentType, boost: doc.weight, fields: Object.fromEntries(Object.entries(doc.fields).map(([k, vs]) => [k, vs.map(show)])) }));
    return;
  }
  for (const [name, values] of Object.entries(doc.fields)) {
    for (const v of values) {
      const s = show(v);
      await out(`${name} :\t${o.dumpText ? s : s.slice(0, 100)}`);
    }
  }
  await out('');
}

/** -doIndex: the document to the writers of index-writers.json, committed; returns the writers' chain. */
async function indexDocument(ctx: NutchContext, doc: NutchDocument, url: string, crawlDir: string): Promise<readonly string[]> {
  const writers = await openIndexWriters(ctx, { crawlDir });
  try {
    await writers.write(doc);
    await writers.commit();
    await writers.close();
  } catch (err) {
    await writers.abort();
    throw new NutchError('NUTCH_INDEX_WRITER_FAILED', `Index writer ${(err as { writerId?: string }).writerId ?? '?'} failed to write ${url}: ${errorMessage(err)}`, { url }, { cause: err });
  }
  return writers.chain;
}
