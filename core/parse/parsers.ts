/**
 * The main thread's Parser composite — what the parse stage, the fetcher's inline parse and
 * parsechecker call. It owns nothing but a handle on the context's ParsePool: one pool per
 * NutchContext, created on first use and terminated when the context closes.
 */
import type { NutchContext } from '../crawl/context.js';
import type { Content } from '../model/content.js';
import type { ParseResult } from '../model/parse.js';
import type { Parser } from '../extension-points/parser.js';
import { ParsePool, type ParsePoolOptions, type ParseRequest } from './pool.js';
import type { ParseOutcome } from './parse-util.js';

/** The pool's key among the context's owned resources. */
const PARSE_POOL = Symbol('parse pool');

/** The context's parse pool; the first call creates it, and the context closes it with itself. */
export function parsePoolOf(ctx: NutchContext, opts: Partial<Pick<ParsePoolOptions, 'size' | 'timeoutMs' | 'defaultSize'>> = {}): ParsePool {
  return ctx.owned.get(PARSE_POOL, () => new ParsePool({ conf: ctx.conf, plugins: ctx.plugins, log: ctx.log, logLevel: ctx.logLevel, ...opts }), (pool) => pool.close());
}

/** The context's parse pool if one is running (never starts one). */
export function runningParsePool(ctx: NutchContext): ParsePool | undefined {
  return ctx.owned.peek<ParsePool>(PARSE_POOL);
}

/** Terminates the context's parse pool, if any; the next parse starts a new one. The crawl loop calls
 * this when the crawl ends: its workers live from round to round (starting a worker — its plugins,
 * its modules — costs more CPU than parsing a small round), and between rounds they only hold their
 * live set (ParsePool.collectGarbage). */
export async function closeParsePool(ctx: NutchContext): Promise<void> {
  await ctx.owned.release(PARSE_POOL);
}

/** Parser composite over the pool: first successful parser wins (selection happens in the worker). */
export class ParserComposite implements Parser {
  constructor(private readonly pool: ParsePool) {}

  async getParse(content: Content): Promise<ParseResult> {
    return (await this.pool.parse(content)).result;
  }

  /** The parse result with its signature and the parser that produced it. */
  parse(content: Content, request?: ParseRequest): Promise<ParseOutcome> {
    return this.pool.parse(content, request);
  }
}

export function parsers(ctx: NutchContext): ParserComposite {
  return new ParserComposite(parsePoolOf(ctx));
}
