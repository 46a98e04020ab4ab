/**
 * Nutch's QuerystringURLNormalizer: sorts the query parameters (`a=x&b=y` and `b=y&a=x` become one
 * URL). Parameters are compared as whole `name=value` strings by UTF-16 code unit, as Java's
 * Collections.sort on Strings; duplicates and empty parameters are kept. Everything else stays.
 */
import type { URLNormalizer } from '../../sdk/plugin.js';

export class QuerystringURLNormalizer implements URLNormalizer {
  normalize(url: string): string {
    const schemeEnd = url.indexOf('://');
    if (schemeEnd <= 0) return url;
    const hash = url.indexOf('#', schemeEnd);
    const end = hash < 0 ? url.length : hash;
    const question = url.indexOf('?', schemeEnd);
    if (question < 0 || question > end) return url;
    const query = url.slice(question + 1, end);
    if (query.indexOf('&') < 0) return url;
    const sorted = query.split('&').sort().join('&');
    return sorted === query ? url : url.slice(0, question + 1) + sorted + url.slice(end);
  }
}
