/**
 * The parts of a URL the filters look at, as java.net.URL gives them (scheme, host, path, query),
 * from a small hand-written split — no WHATWG parsing, which would rewrite the URL under test.
 * Also the check every nutch-ts URL filter applies first: input that is not a URL at all (no
 * scheme, whitespace or control characters, longer than db.max.outlink.length) is rejected.
 */
import type { Configuration } from '../../sdk/plugin.js';

export interface URLParts {
  /** Lower-cased scheme, without ':'. */
  scheme: string;
  /** Lower-cased host without port, userinfo or IPv6 brackets; '' when the URL has no authority. */
  host: string;
  hasAuthority: boolean;
  /** Path as written ('' when absent), as java.net.URL#getPath(). */
  path: string;
  /** Query without '?', or null when there is none. */
  query: string | null;
}

const NEEDS_AUTHORITY = new Set(['http', 'https', 'ftp']);

function isSchemeStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function isSchemeChar(c: number): boolean {
  return isSchemeStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e;
}

/** Index of the ':' ending a valid scheme, or -1. */
function schemeEnd(url: string): number {
  if (url.length === 0 || !isSchemeStart(url.charCodeAt(0))) return -1;
  for (let i = 1; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x3a) return i;
    if (!isSchemeChar(c)) return -1;
  }
  return -1;
}

/**
 * True when the string could be a URL: a scheme, no whitespace or control characters, bounded
 * length, and a host after `//` (only file: may have an empty authority, as in file:///etc);
 * http:, https: and ftp: URLs must have the `//` authority.
 */
export function isPlausibleURL(url: string, maxLength: number): boolean {
  if (typeof url !== 'string' || url.length === 0 || url.length > maxLength) return false;
  const colon = schemeEnd(url);
  if (colon === -1) return false;
  if (url.charCodeAt(colon + 1) === 0x2f && url.charCodeAt(colon + 2) === 0x2f) {
    const c = url.charCodeAt(colon + 3);
    const emptyHost = Number.isNaN(c) || c === 0x2f || c === 0x3f || c === 0x23 || c === 0x3a || c === 0x40;
    if (emptyHost && !(colon === 4 && url.slice(0, 4).toLowerCase() === 'file')) return false;
  } else if (colon <= 5 && NEEDS_AUTHORITY.has(url.slice(0, colon).toLowerCase())) {
    return false;
  }
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f || (c >= 0x80 && c <= 0x9f) || c === 0x2028 || c === 0x2029) return false;
  }
  return true;
}

/** db.max.outlink.length when declared (it is in nutch-default.json), else Nutch's 4096. */
export function maxURLLength(conf: Configuration): number {
  const n = conf.isDeclared('db.max.outlink.length') ? conf.getInt('db.max.outlink.length', 4096) : 4096;
  return n > 0 ? n : Number.MAX_SAFE_INTEGER;
}

/** Splits a URL; null when it has no scheme or a hierarchical URL has a malformed authority. */
export function parseURL(url: string): URLParts | null {
  const colon = schemeEnd(url);
  if (colon === -1) return null;
  const scheme = url.slice(0, colon).toLowerCase();
  let rest = url.slice(colon + 1);
  const hash = rest.indexOf('#');
  if (hash !== -1) rest = rest.slice(0, hash);
  let host = '';
  let hasAuthority = false;
  if (rest.startsWith('//')) {
    hasAuthority = true;
    let end = 2;
    while (end < rest.length && rest[end] !== '/' && rest[end] !== '?') end++;
    const authority = rest.slice(2, end);
    rest = rest.slice(end);
    const at = authority.lastIndexOf('@');
    const hostPort = at === -1 ? authority : authority.slice(at + 1);
    if (hostPort.startsWith('[')) {
      const close = hostPort.indexOf(']');
      if (close === -1) return null;
      host = hostPort.slice(1, close).toLowerCase();
      const after = hostPort.slice(close + 1);
      if (after !== '' && !/^:\d*$/.test(after)) return null;
    } else {
      const pc = hostPort.indexOf(':');
      host = (pc === -1 ? hostPort : hostPort.slice(0, pc)).toLowerCase();
      if (pc !== -1 && !/^\d*$/.test(hostPort.slice(pc + 1))) return null;
    }
  }
  const q = rest.indexOf('?');
  return {
    scheme,
    host,
    hasAuthority,
    path: q === -1 ? rest : rest.slice(0, q),
    query: q === -1 ? null : rest.slice(q + 1),
  };
}
