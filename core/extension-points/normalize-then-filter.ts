/**
 * Normalise, then filter: how every stage that takes -normalize / -filter (or their -no… forms) turns
 * one URL into its key or null, as Nutch's CrawlDbFilter, LinkDbFilter and Injector do. Combine rule:
 * the URLNormalizer reduce first, then the URLFilter chain on its result; null at any step drops the URL.
 */
import type { URLNormalizers } from './url-normalizer.js';
import type { URLFilters } from './url-filter.js';

export type UrlRewrite = (url: string) => string | null;

/** The rewrite of the given chains; either may be null (that step is skipped). */
export function normalizeThenFilter(normalizers: URLNormalizers | null, filters: URLFilters | null): UrlRewrite {
  if (normalizers && filters) {
    return (url) => {
      const out = normalizers.normalize(url);
      return out === null ? null : filters.filter(out);
    };
  }
  if (normalizers) return (url) => normalizers.normalize(url);
  if (filters) return (url) => filters.filter(url);
  return (url) => url;
}
