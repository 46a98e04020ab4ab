/**
 * `nutch-ts/testing`: run one plugin's extensions against inputs without a crawl. A plugin's own
 * tests point `pluginFolders` at the plugin's folder and exercise it through the real repository.
 */
import { createContext, type CreateContextOptions, type NutchContext } from '../core/crawl/context.js';
import { createMemoryLogger } from '../core/log.js';
import type { NormalizerScope } from '../core/extension-points/url-normalizer.js';

export type { NutchContext } from '../core/crawl/context.js';

export interface TestContextOptions extends CreateContextOptions {}

/** A context with a memory logger (see `ctx.log.records`) and, unless given, no site file lookup surprises. */
export function createTestContext(opts: TestContextOptions = {}): NutchContext & { log: ReturnType<typeof createMemoryLogger> } {
  const log = createMemoryLogger();
  const ctx = createContext({ logger: log, ...opts });
  return Object.assign(ctx, { log: opts.logger ? (opts.logger as ReturnType<typeof createMemoryLogger>) : log });
}

/** Runs URLs through one URL filter (or the whole chain when `extensionId` is omitted). */
export async function runURLFilter(ctx: NutchContext, urls: string[], extensionId?: string): Promise<(string | null)[]> {
  const filters = await ctx.extensions.urlFilters(extensionId);
  return urls.map((u) => filters.filter(u));
}

/** Runs URLs through one URL normalizer (or the scope's chain when `extensionId` is omitted). */
export async function runURLNormalizer(ctx: NutchContext, urls: string[], opts: { extensionId?: string; scope?: NormalizerScope } = {}): Promise<(string | null)[]> {
  const normalizers = await ctx.extensions.urlNormalizers(opts.scope ?? 'default', opts.extensionId);
  return urls.map((u) => normalizers.normalize(u));
}
