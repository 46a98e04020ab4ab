/**
 * Nutch's URLUtil.chooseRepr: which of a redirect's source and target is the page's representative
 * URL (the one indexed, the other kept as `orig`). The fetcher (protocol and meta-refresh redirects,
 * starting from the source's own representative URL) and parse's meta-refresh output both use it.
 *
 * 1. another domain: the target;
 * 2. permanent: the source when it is a host root (path `/` or empty, no query), else the target;
 * 3. temporary: a root source beats a deeper target and a root target beats a deeper source; on the
 *    same host, the path with fewer `/`-segments, then the shorter path (with query); on two hosts
 *    both at the root or neither, the host with fewer labels. Ties keep the source.
 * A URL that does not parse leaves the target.
 */
import { domainOf } from './url-parts.js';

export function chooseRepr(src: string, dst: string, temp: boolean): string {
  let s: URL;
  let d: URL;
  try {
    s = new URL(src);
    d = new URL(dst);
  } catch {
    return dst;
  }
  if (domainOf(s.hostname) !== domainOf(d.hostname)) return dst;
  // java.net.URL#getFile: the path with its query
  const srcFile = s.pathname + s.search;
  const dstFile = d.pathname + d.search;
  const srcRoot = srcFile === '/' || srcFile === '';
  const dstRoot = dstFile === '/' || dstFile === '';
  if (!temp) return srcRoot ? src : dst;
  if (srcRoot && !dstRoot) return src;
  if (!srcRoot && dstRoot) return dst;
  if (!srcRoot && !dstRoot && s.hostname === d.hostname) {
    const srcSegments = javaSplitCount(srcFile, '/');
    const dstSegments = javaSplitCount(dstFile, '/');
    if (srcSegments !== dstSegments) return dstSegments < srcSegments ? dst : src;
    return dstFile.length < srcFile.length ? dst : src;
  }
  return javaSplitCount(d.hostname, '.') < javaSplitCount(s.hostname, '.') ? dst : src;
}

/** Java's `s.split(sep).length`: no match gives the string itself; trailing empty strings are removed. */
function javaSplitCount(s: string, sep: string): number {
  if (!s.includes(sep)) return 1;
  const parts = s.split(sep);
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts.length;
}
