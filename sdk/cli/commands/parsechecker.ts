/**
 * `nutch parsechecker [-normalize] [-followRedirects] [-checkRobotsTxt] [-dumpText] [-forceAs <mime>]
 * [-json] (-stdin | <url> ...)`, as Nutch's ParserChecker: fetches the URL through the Protocol chain,
 * parses it through the parse worker pool (parse-plugins.json selection, HtmlParseFilters, Signature),
 * and prints Nutch's layout — contentType, signature, then per parse the URL, the ParseData dump
 * (status, title, outlinks with anchors, content and parse metadata) and, with -dumpText, the text.
 * A file: URL is read directly when no Protocol extension serves file:.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, writeLine, type CliIO, type Command } from '../command.js';
import { checkerLines } from './checker-input.js';
import { NutchError, errorMessage, isNutchError } from '../../../core/errors.js';
import { checkAgentName, type NutchContext } from '../../../core/crawl/context.js';
import { createContent, type Content } from '../../../core/model/content.js';
import { CrawlStatus, createCrawlDatum } from '../../../core/model/crawl-datum.js';
import type { Metadata } from '../../../core/model/metadata.js';
import { ParseStatusCode, type ParseData, type ParseStatus } from '../../../core/model/parse.js';
import { ProtocolStatusCode, protocolStatusName, protocolStatus, type ProtocolOutput } from '../../../core/model/protocol-status.js';
import type { Protocol } from '../../../core/extension-points/protocol.js';
import { parsePoolOf } from '../../../core/parse/parsers.js';
import { toHex } from '../../../core/parse/parse-util.js';

const usage = 'Usage: nutch parsechecker [-D k=v ...] [-normalize] [-followRedirects] [-checkRobotsTxt] [-dumpText] [-forceAs <mimeType>] [-json] (-stdin | <url> ...)';
const MAX_REDIRECTS = 10;
const FILE_TYPES: Record<string, string> = { '.html': 'text/html', '.htm': 'text/html', '.xhtml': 'application/xhtml+xml', '.txt': 'text/plain' };

interface Options {
  normalize: boolean;
  followRedirects: boolean;
  checkRobotsTxt: boolean;
  dumpText: boolean;
  forceAs?: string;
  json: boolean;
}

export const parseCheckerCommand: Command = {
  name: 'parsechecker',
  summary: 'fetch and parse one URL, print what the parsers made of it',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-normalize', '-followRedirects', '-checkRobotsTxt', '-dumpText', '-json', '-stdin'], values: ['-forceAs'] }, usage);
    const useStdin = args.flags.has('-stdin');
    if (!useStdin && args.positional.length === 0) throw new NutchError('NUTCH_USAGE', usage);
    const opts: Options = {
      normalize: args.flags.has('-normalize'),
      followRedirects: args.flags.has('-followRedirects'),
      checkRobotsTxt: args.flags.has('-checkRobotsTxt'),
      dumpText: args.flags.has('-dumpText'),
      forceAs: args.values.get('-forceAs'),
      json: args.flags.has('-json'),
    };
    const ctx = cliContext(io, args.defines);
    const protocols = new Set<Protocol>();
    // the parse worker starts now, beside the fetch (~0.3 CPU-s of thread start and plugin loading
    // that a second core takes while this one loads the protocol and fetches); a plugin that cannot
    // start fails the parse, as before
    parsePoolOf(ctx).ready(1).catch(() => {});
    try {
      let code: number = ExitCode.OK;
      for await (const line of checkerLines(io.stdin, useStdin, args.positional, io.signal)) {
        const url = line.trim();
        if (!url) continue;
        const rc = await checkOne(ctx, io, url, opts, protocols);
        if (rc !== ExitCode.OK) code = rc;
        if (io.signal.aborted) return ExitCode.INTERRUPTED;
      }
      return code;
    } finally {
      for (const p of protocols) await p.close?.().catch(() => {});
      await ctx.close();
    }
  },
};

async function checkOne(ctx: NutchContext, io: CliIO, input: string, opts: Options, protocols: Set<Protocol>): Promise<number> {
  const out = (s: string) => writeLine(io.stdout, s);
  let url = input;
  if (opts.normalize) {
    const normalized = (await ctx.extensions.urlNormalizers('default')).normalize(url);
    if (!normalized) {
      io.stderr.write(`URL ${url} was rejected by the URL normalizers\n`);
      return ExitCode.FAILURE;
    }
    url = normalized;
  }
  if (!opts.json) await out(`fetching: ${url}`);
  let output: ProtocolOutput;
  for (let redirects = 0; ; redirects++) {
    try {
      output = await fetchOnce(ctx, url, opts, protocols, io);
    } catch (err) {
      io.stderr.write(`${isNutchError(err) ? `${err.code}: ` : ''}${errorMessage(err)}\n`);
      return ExitCode.FAILURE;
    }
    const status = output.status;
    const redirect = status.code === ProtocolStatusCode.MOVED || status.code === ProtocolStatusCode.TEMP_MOVED;
    if (!redirect || !opts.followRedirects || redirects >= MAX_REDIRECTS || !status.args[0]) break;
    let target = new URL(status.args[0], url).href;
    if (opts.normalize) target = (await ctx.extensions.urlNormalizers('default')).normalize(target) ?? target;
    url = target;
    if (!opts.json) await out(`fetching: ${url}`);
  }
  if (output.status.code !== ProtocolStatusCode.SUCCESS || !output.content) {
    io.stderr.write(`Fetch failed with protocol status: ${protocolStatusName(output.status.code)}(${output.status.code})${output.status.args.length ? `, args=[${output.status.args.join(', ')}]` : ''}\n`);
    return ExitCode.FAILURE;
  }
  const content = opts.forceAs ? { ...output.content, contentType: opts.forceAs } : output.content;
  const scoring = await ctx.extensions.scoringFilters();
  scoring.passScoreBeforeParsing(url, createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED }), content);
  const outcome = await parsePoolOf(ctx).parse(content, { forceAs: opts.forceAs });
  for (const [u, parse] of Object.entries(outcome.result.parses)) scoring.passScoreAfterParsing(u, content, parse);
  const signature = outcome.signature ? toHex(outcome.signature) : null;

  if (opts.json) {
    await out(JSON.stringify({
      url, contentType: content.contentType, signature, parser: outcome.parser,
      parses: Object.entries(outcome.result.parses).map(([u, p]) => ({ url: u, ...p.data, ...(opts.dumpText ? { text: p.text } : {}) })),
    }));
  } else {
    await out(`parsing: ${url}`);
    await out(`contentType: ${content.contentType}`);
    if (signature) await out(`signature: ${signature}`);
    for (const [u, p] of Object.entries(outcome.result.parses)) {
      await out(`---------\nUrl\n---------------\n\n${u}`);
      await out(`---------\nParseData\n---------\n\n${formatParseData(p.data)}`);
      if (opts.dumpText) await out(`---------\nParseText\n---------\n\n${p.text}`);
    }
  }
  const canonical = outcome.result.parses[url] ?? Object.values(outcome.result.parses)[0];
  return canonical && canonical.data.status.majorCode === ParseStatusCode.SUCCESS ? ExitCode.OK : ExitCode.FAILURE;
}

async function fetchOnce(ctx: NutchContext, url: string, opts: Options, protocols: Set<Protocol>, io: CliIO): Promise<ProtocolOutput> {
  const scheme = url.slice(0, Math.max(0, url.indexOf(':'))).toLowerCase();
  if (scheme === 'http' || scheme === 'https') checkAgentName(ctx.conf);
  const factory = ctx.extensions.protocolFactory();
  let protocol: Protocol;
  try {
    protocol = await factory.getProtocol(url);
  } catch (err) {
    if (scheme === 'file' && isNutchError(err, 'NUTCH_PROTOCOL_NOT_FOUND')) return readFileUrl(url);
    throw err;
  }
  protocols.add(protocol);
  const datum = createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED });
  if (opts.checkRobotsTxt && protocol.getRobotRules) {
    const rules = await protocol.getRobotRules(url, datum, { signal: io.signal });
    if (!rules.isAllowed(url)) return { content: null, status: protocolStatus(ProtocolStatusCode.ROBOTS_DENIED, url) };
  }
  return protocol.getProtocolOutput(url, datum, { signal: io.signal });
}

/** file: without a protocol-file plugin: the bytes from disk, the type from the extension. */
async function readFileUrl(url: string): Promise<ProtocolOutput> {
  try {
    const path = fileURLToPath(url);
    const bytes = new Uint8Array(await readFile(path));
    const content: Content = createContent({ url, content: bytes, contentType: FILE_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream', metadata: { 'Content-Length': [String(bytes.length)] } });
    return { content, status: protocolStatus(ProtocolStatusCode.SUCCESS) };
  } catch (err) {
    return { content: null, status: protocolStatus(ProtocolStatusCode.NOTFOUND, errorMessage(err)) };
  }
}

const MAJOR = ['notparsed', 'success', 'failed'];

/** Nutch's ParseStatus.toString: `success(1,0)`, with `: args` when there are any. */
export function formatParseStatus(s: ParseStatus): string {
  const name = MAJOR[s.majorCode] ?? 'UNKNOWN!';
  return `${name}(${s.majorCode},${s.minorCode})${s.args.length ? `: ${s.args.join(', ')}` : ''}`;
}

function formatMetadata(md: Metadata): string {
  return Object.entries(md).flatMap(([k, vs]) => vs.map((v) => `${k}=${v} `)).join('');
}

/** Nutch's ParseData.toString. */
export function formatParseData(d: ParseData): string {
  const lines = [`Version: 5`, `Status: ${formatParseStatus(d.status)}`, `Title: ${d.title}`, `Outlinks: ${d.outlinks.length}`];
  for (const o of d.outlinks) lines.push(`  outlink: toUrl: ${o.toUrl} anchor: ${o.anchor}`);
  lines.push(`Content Metadata: ${formatMetadata(d.contentMeta)}`);
  lines.push(`Parse Metadata: ${formatMetadata(d.parseMeta)}`);
  return lines.join('\n');
}
