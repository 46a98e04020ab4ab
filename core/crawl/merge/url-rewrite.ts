/** -normalize / -filter of the merge tools (Nutch's CrawlDbFilter / LinkDbFilter): one URL in, the URL or null out. */
import type { NutchContext } from '../context.js';
import type { NormalizerScope } from '../../extension-points/url-normalizer.js';
import { normalizeThenFilter, type UrlRewrite } from '../../extension-points/normalize-then-filter.js';

export async function urlRewrite(ctx: NutchContext, opts: { normalize?: boolean; filter?: boolean; scope: NormalizerScope }): Promise<UrlRewrite | undefined> {
  if (!opts.normalize && !opts.filter) return undefined;
  const normalizers = opts.normalize ? await ctx.extensions.urlNormalizers(opts.scope) : null;
  const filters = opts.filter ? await ctx.extensions.urlFilters() : null;
  return normalizeThenFilter(normalizers, filters);
}
