/**
 * Path clean-up as Nutch's BasicURLNormalizer: `.` and `..` segments are resolved (RFC 3986 §5.2.4),
 * a `..` above the root is dropped (leading `/../`, which URI.normalize() keeps), and runs of
 * slashes collapse to one. The path starts with "/"; an empty path becomes "/".
 */
export function normalizePath(path: string): string {
  if (path === '') return '/';
  if (path.indexOf('//') < 0 && path.indexOf('/.') < 0) return path;
  const segments = path.split('/');
  const out: string[] = [];
  let trailingSlash = false;
  for (let i = 1; i < segments.length; i++) {
    const seg = segments[i];
    const last = i === segments.length - 1;
    if (seg === '' || seg === '.') {
      if (last) trailingSlash = true;
      continue;
    }
    if (seg === '..') {
      out.pop();
      if (last) trailingSlash = true;
      continue;
    }
    out.push(seg);
  }
  if (out.length === 0) return '/';
  return '/' + out.join('/') + (trailingSlash ? '/' : '');
}
