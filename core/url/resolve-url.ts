/**
 * Link resolution as Nutch's URLUtil.resolveURL: RFC 3986 §5.2 reference resolution, so a target is
 * joined to its base and nothing else happens to it. An absolute target is returned as written (no
 * WHATWG re-serialisation: `http://www.nutch.org` stays without its slash, host case and escapes are
 * left alone) — normalising is the URLNormalizers' job, run on every outlink later. `;params` of the
 * base's last segment are dropped with it (`g` against `http://host/;x` is `http://host/g`), and a
 * pure query keeps the base path (`?y` against `http://host/a;x` is `http://host/a;x?y`, RFC 3986
 * §5.4.1 example 7).
 *
 * Two browser habits are kept because pages rely on them: leading and trailing whitespace and control
 * characters are trimmed (Java's `String.trim()`, as Nutch), and tabs and line breaks inside the
 * target are removed (a long href wrapped over two lines). A target with the base's own scheme and no
 * authority (`http:g`) is relative, as Java's URL and browsers read it.
 */

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
const TAB_OR_NEWLINE = /[\t\n\r]/g;

interface Parts {
  scheme: string;
  /** null when there is no `//` authority. */
  authority: string | null;
  path: string;
  /** null when there is no `?`. */
  query: string | null;
}

function trimJava(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) <= 0x20) start++;
  while (end > start && s.charCodeAt(end - 1) <= 0x20) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Splits a relative reference (or a URL after its scheme) into authority, path, query, fragment. */
function splitReference(ref: string): { authority: string | null; path: string; query: string | null; fragment: string | null } {
  let fragment: string | null = null;
  const hash = ref.indexOf('#');
  if (hash >= 0) {
    fragment = ref.slice(hash + 1);
    ref = ref.slice(0, hash);
  }
  let query: string | null = null;
  const q = ref.indexOf('?');
  if (q >= 0) {
    query = ref.slice(q + 1);
    ref = ref.slice(0, q);
  }
  let authority: string | null = null;
  if (ref.startsWith('//')) {
    const slash = ref.indexOf('/', 2);
    authority = slash < 0 ? ref.slice(2) : ref.slice(2, slash);
    ref = slash < 0 ? '' : ref.slice(slash);
  }
  return { authority, path: ref, query, fragment };
}

function parseBase(base: string): Parts | null {
  const m = SCHEME.exec(base);
  if (!m) return null;
  const { authority, path, query } = splitReference(base.slice(m[0].length));
  return { scheme: m[0].slice(0, -1), authority, path, query };
}

/** RFC 3986 §5.2.4 remove_dot_segments; `..` above the root is dropped. */
export function removeDotSegments(path: string): string {
  if (path.indexOf('.') < 0) return path;
  const input = path.split('/');
  const out: string[] = [];
  const absolute = path.charCodeAt(0) === 0x2f;
  for (let i = absolute ? 1 : 0; i < input.length; i++) {
    const seg = input[i]!;
    const last = i === input.length - 1;
    if (seg === '.') {
      if (last) out.push('');
    } else if (seg === '..') {
      if (out.length > 0) out.pop();
      if (last) out.push('');
    } else {
      out.push(seg);
    }
  }
  return (absolute ? '/' : '') + out.join('/');
}

/** RFC 3986 §5.2.3 merge. */
function merge(base: Parts, refPath: string): string {
  if (base.authority !== null && base.path === '') return '/' + refPath;
  const slash = base.path.lastIndexOf('/');
  return slash < 0 ? refPath : base.path.slice(0, slash + 1) + refPath;
}

/**
 * `target` resolved against the absolute URL `base`, or null when `base` is not an absolute URL with
 * a scheme or the target cannot be joined to it (a relative target on an opaque base like `mailto:x`).
 */
export function resolveURL(target: string, base: string): string | null {
  target = trimJava(target);
  if (target.indexOf('\t') >= 0 || target.indexOf('\n') >= 0 || target.indexOf('\r') >= 0) target = target.replace(TAB_OR_NEWLINE, '');
  const m = SCHEME.exec(target);
  let ref = target;
  let b: Parts | null = null;
  if (m) {
    const rest = target.slice(m[0].length);
    if (rest.startsWith('//')) return target;
    b = parseBase(base);
    // `http:g` on an http base is relative (Java's URL, browsers); any other scheme is absolute.
    if (!b || b.scheme.toLowerCase() !== m[0].slice(0, -1).toLowerCase() || (b.authority === null && !b.path.startsWith('/'))) return target;
    ref = rest;
  }
  b ??= parseBase(base);
  if (!b) return null;
  if (b.authority === null && !b.path.startsWith('/')) return null; // opaque base: nothing to join to
  const r = splitReference(ref);
  let authority = b.authority;
  let path: string;
  let query: string | null;
  if (r.authority !== null) {
    authority = r.authority;
    path = removeDotSegments(r.path);
    query = r.query;
  } else if (r.path === '') {
    path = b.path;
    query = r.query ?? b.query;
  } else {
    path = removeDotSegments(r.path.charCodeAt(0) === 0x2f ? r.path : merge(b, r.path));
    query = r.query;
  }
  let out = b.scheme + ':';
  if (authority !== null) out += '//' + authority;
  out += path;
  if (query !== null) out += '?' + query;
  if (r.fragment !== null) out += '#' + r.fragment;
  return out;
}
