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
import { ExitCode, writeLine, type Command } from '../command.js';
import { NutchError, errorMessage, isNutchError } from '../../../core/errors.js';
import { checkAgentName } from '../../../core/crawl/context.js';
import { CrawlStatus, createCrawlDatum } from '../../../core/model/crawl-datum.js';
import { ProtocolStatusCode, protocolStatusName } from '../../../core/model/protocol-status.js';
import { ParseMeta } from '../../../core/model/parse.js';
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
      const indexingFilters = await ctx.extensions.indexingFilters();
      const scoring = await ctx.extensions.scoringFilters();
      if (!json) await out(`fetching: ${url}`);
      const datum = createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED });
      const protocol = await ctx.extensions.protocolFactory().getProtocol(url);
      let output;
      try {
        output = await protocol.getProtocolOutput(url, datum, { signal: io.signal });
      } finally {
        await protocol.close?.().catch(() => undefined);
      }
      if (output.status.code !== ProtocolStatusCode.SUCCESS || !output.content) {
        io.stderr.write(`Fetch failed with protocol status: ${protocolStatusName(output.status.code)}(${output.status.code})${output.status.args.length ? `, args=[${output.status.args.join(', ')}]` : ''}\n`);
        return ExitCode.FAILURE;
      }
      const content = output.content;
      if (!json) {
        await out(`parsing: ${url}`);
        await out(`contentType: ${content.contentType}`);
      }
      scoring.passScoreBeforeParsing(url, datum, content);
      const outcome = await parsePoolOf(ctx).parse(content, {});
      const parse = outcome.result.parses[url] ?? Object.values(outcome.result.parses)[0];
      if (!parse || parse.data.status.majorCode !== 1) {
        io.stderr.write(`Parse failed for ${url}: ${parse?.data.status.args.join(', ') ?? 'no parse'}\n`);
        return ExitCode.FAILURE;
      }
      scoring.passScoreAfterParsing(url, content, parse);
      if (outcome.signature) parse.data.contentMeta[ParseMeta.SIGNATURE] = [toHex(outcome.signature)];
      const fetchDatum = createCrawlDatum({ status: CrawlStatus.STATUS_FETCH_SUCCESS, fetchTime: Date.now(), signature: outcome.signature ?? null });
      let doc: NutchDocument | null = startDocument(url, '', parse.data, null, fetchDatum);
      delete doc.fields.segment;
      const boost = scoring.indexerScore(url, doc, null, fetchDatum, parse, null, 1.0);
      doc.weight = boost;
      doc.fields.boost = [String(boost)];
      try {
        doc = await indexingFilters.filter(doc, { url, parse, dbDatum: null, fetchDatum, inlinks: null });
      } catch (err) {
        io.stderr.write(`Error indexing ${url}: ${isNutchError(err) ? `${err.code}: ` : ''}${errorMessage(err)}\n`);
        return ExitCode.FAILURE;
      }
      if (!doc) {
        if (json) await out(JSON.stringify({ url, discarded: true }));
        else await out('Document discarded by indexing filter');
        return ExitCode.OK;
      }
      sanitizeDocument(doc);
      const dump = args.flags.has('-dumpText');
      if (json) {
        await out(JSON.stringify({ url, contentType: content.contentType, boost: doc.weight, fields: Object.fromEntries(Object.entries(doc.fields).map(([k, vs]) => [k, vs.map(show)])) }));
      } else {
        for (const [name, values] of Object.entries(doc.fields)) {
          for (const v of values) {
            const s = show(v);
            await out(`${name} :\t${dump ? s : s.slice(0, 100)}`);
          }
        }
        await out('');
      }
      if (args.flags.has('-doIndex')) {
        const writers = await openIndexWriters(ctx, { crawlDir: resolve(io.cwd, args.values.get('-crawlDir') ?? '.') });
        try {
          await writers.write(doc);
          await writers.commit();
          await writers.close();
        } catch (err) {
          await writers.abort();
          throw new NutchError('NUTCH_INDEX_WRITER_FAILED', `Index writer ${(err as { writerId?: string }).writerId ?? '?'} failed to write ${url}: ${errorMessage(err)}`, { url }, { cause: err });
        }
        if (!json) io.stderr.write(`Indexed ${url} with ${writers.chain.join(', ')}\n`);
      }
      return ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
