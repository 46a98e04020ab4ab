/**
 * Nutch's BasicURLNormalizer: lower-case scheme and host, user info and default port dropped (http,
 * https), fragment dropped, `.`/`..` segments resolved (leading `/../` too) and slash runs collapsed,
 * percent-encoding normalised (a stray `%` escaped as `%25`), percent-encoded host names decoded,
 * empty path -> "/", IDN conversion and trailing-dot removal per configuration.
 * Hand-written single-pass parser (no regex on the URL): malformed input returns null, never throws.
 */
import type { PluginContext, URLNormalizer } from '../../sdk/plugin.js';
import { normalizeHost, type HostOptions, type IdnMode } from './host.js';
import { normalizePath } from './dot-segments.js';
import { normalizePercentEncoding } from './percent-encoding.js';

const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443', ftp: '21' };

function isSchemeChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e;
}

/** Index of the first of the given delimiters at or after `from`, else `to`. */
function indexOfAny(s: string, from: number, to: number, a: number, b: number, c: number): number {
  for (let i = from; i < to; i++) {
    const ch = s.charCodeAt(i);
    if (ch === a || ch === b || ch === c) return i;
  }
  return to;
}

function hasControlOrSpace(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** "" when the port is absent, empty or the scheme's default; null when it is not a port. */
function normalizePort(port: string, scheme: string): string | null {
  if (port === '') return '';
  let n = 0;
  for (let i = 0; i < port.length; i++) {
    const c = port.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return null;
    n = n * 10 + (c - 0x30);
    if (n > 65535) return null;
  }
  if (n > 65535) return null;
  const s = String(n);
  return DEFAULT_PORTS[scheme] === s ? '' : s;
}

export class BasicURLNormalizer implements URLNormalizer {
  private readonly host: HostOptions;
  private readonly maxLength: number;

  constructor(ctx: PluginContext) {
    this.host = {
      idn: ctx.conf.getString('urlnormalizer.basic.host.idn') as IdnMode,
      idna2008: ctx.conf.getBoolean('urlnormalizer.basic.host.idna2008'),
      trimTrailingDot: ctx.conf.getBoolean('urlnormalizer.basic.host.trim-trailing-dot'),
    };
    this.maxLength = ctx.conf.isDeclared('db.max.outlink.length') ? ctx.conf.getInt('db.max.outlink.length', 4096) : 4096;
  }

  normalize(url: string): string | null {
    if (typeof url !== 'string' || url.length > this.maxLength) return null;
    let start = 0;
    let end = url.length;
    while (start < end && url.charCodeAt(start) <= 0x20) start++; // Java String.trim()
    while (end > start && url.charCodeAt(end - 1) <= 0x20) end--;
    if (start === end) return null;

    const first = url.charCodeAt(start) | 0x20;
    if (first < 0x61 || first > 0x7a) return null;
    let i = start + 1;
    while (i < end && isSchemeChar(url.charCodeAt(i))) i++;
    if (i >= end || url.charCodeAt(i) !== 0x3a) return null;
    const scheme = url.slice(start, i).toLowerCase();
    i++;

    const special = scheme === 'http' || scheme === 'https' || scheme === 'ftp';
    if (!special && scheme !== 'file') {
      // Other schemes (mailto:, news:, …) are opaque here: scheme lower-cased, nothing else touched.
      return hasControlOrSpace(url, i, end) ? null : scheme + ':' + url.slice(i, end);
    }

    // As Java's URL: `//` starts an authority; without one (`http:`, `http:/x`, `ftp:/`) the host is
    // empty and the URL is rebuilt as `scheme:/path`, which is what Nutch returns for these forms.
    const hasAuthority = url.charCodeAt(i) === 0x2f && url.charCodeAt(i + 1) === 0x2f && i + 1 < end;
    let authority = '';
    let pathStart = i;
    if (hasAuthority) {
      const authStart = i + 2;
      pathStart = indexOfAny(url, authStart, end, 0x2f, 0x3f, 0x23);
      const a = this.normalizeAuthority(url.slice(authStart, pathStart), scheme);
      if (a === null) return null;
      // file:///x keeps its empty authority (Nutch returns it unchanged); http:///x becomes http:/x
      if (a !== '' || !special) authority = '//' + a;
    }

    const pathEnd = indexOfAny(url, pathStart, end, 0x3f, 0x23, 0x23);
    const encodedPath = normalizePercentEncoding(url, pathStart, pathEnd);
    if (encodedPath === null) return null;
    // a path without its leading slash (`http:foo`, `file:a/b`) gets one, as Nutch
    const path = encodedPath === '' || encodedPath.charCodeAt(0) === 0x2f ? encodedPath : '/' + encodedPath;
    let out = scheme + ':' + authority + normalizePath(path);

    if (pathEnd < end && url.charCodeAt(pathEnd) === 0x3f) {
      let queryEnd = url.indexOf('#', pathEnd + 1);
      if (queryEnd < 0 || queryEnd > end) queryEnd = end;
      const query = normalizePercentEncoding(url, pathEnd + 1, queryEnd);
      if (query === null) return null;
      out += '?' + query;
    }
    return out; // the fragment, if any, is dropped
  }

  /**
   * Host and port, '' for an empty host, null when malformed. User info is dropped for http and https
   * (NUTCH-3087: it makes duplicates and stores credentials) and kept for ftp, which needs it to log in.
   */
  private normalizeAuthority(auth: string, scheme: string): string | null {
    const at = auth.lastIndexOf('@');
    const userInfo = at >= 0 ? auth.slice(0, at) : '';
    if (at >= 0 && hasControlOrSpace(userInfo, 0, userInfo.length)) return null;
    const hostPort = at >= 0 ? auth.slice(at + 1) : auth;
    let rawHost = hostPort;
    let rawPort = '';
    if (hostPort.charCodeAt(0) === 0x5b) {
      const close = hostPort.indexOf(']');
      if (close < 0) return null;
      rawHost = hostPort.slice(0, close + 1);
      const rest = hostPort.slice(close + 1);
      if (rest !== '' && rest.charCodeAt(0) !== 0x3a) return null;
      rawPort = rest.slice(1);
    } else {
      const colon = hostPort.indexOf(':');
      if (colon >= 0) {
        rawHost = hostPort.slice(0, colon);
        rawPort = hostPort.slice(colon + 1);
      }
    }
    const port = normalizePort(rawPort, scheme);
    if (port === null) return null;
    if (rawHost === '') return port === '' ? '' : null; // `http://:8080/` names no server
    const host = normalizeHost(rawHost, this.host);
    if (host === null) return null;
    const keepUserInfo = at >= 0 && scheme !== 'http' && scheme !== 'https';
    return (keepUserInfo ? userInfo + '@' : '') + host + (port ? ':' + port : '');
  }
}
