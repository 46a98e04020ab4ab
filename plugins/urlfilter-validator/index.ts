/**
 * Nutch's UrlValidator (from commons-validator): accepts only URLs made of printable US-ASCII with a
 * letters-only scheme, an authority that is a dotted IPv4 address (each part <= 255) or a host
 * name of at least two labels whose top-level label starts with a letter and is 2 to
 * `urlfilter.tld.length` characters long, an optional port of 1-5 digits, no user info, a path of
 * the allowed characters that does not climb above the root with `..`, and any query.
 * Unlike Nutch, URLs longer than db.max.outlink.length and a `%` not followed by two hex digits (in path or query) is invalid too (RFC 3986).
 */
import type { PluginContext, URLFilter } from '../../sdk/plugin.js';
import { maxURLLength } from '../urlfilter-regex/url-parts.js';

const URL_PATTERN = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;
const LEGAL_ASCII = /^[\x21-\x7e]+$/;
const SCHEME = /^[a-zA-Z]+$/;
const AUTHORITY = /^([a-zA-Z\d\-.]*)(:\d*)?(.*)?$/s;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const ATOM = '[^\\s;/@&=,.?:+$]+';
const DOMAIN = new RegExp(`^${ATOM}(?:\\.${ATOM})*$`);
const PORT = /^:\d{1,5}$/;
const PATH = /^(?:\/[-\w:@&?=+,.!/~*'%$;()]*)?$/;
const BAD_PERCENT = /%(?![0-9a-fA-F]{2})/;

function countToken(token: string, target: string): number {
  let count = 0;
  let i = target.indexOf(token);
  while (i !== -1) {
    count++;
    i = target.indexOf(token, i + 1);
  }
  return count;
}

export class UrlValidator implements URLFilter {
  private readonly tldLength: number;
  private readonly maxLength: number;

  constructor(ctx: PluginContext) {
    this.tldLength = ctx.conf.getInt('urlfilter.tld.length', 8);
    this.maxLength = maxURLLength(ctx.conf);
  }

  filter(url: string): string | null {
    return typeof url === 'string' && url.length <= this.maxLength && this.isValid(url) ? url : null;
  }

  private isValid(value: string): boolean {
    if (!LEGAL_ASCII.test(value)) return false;
    const m = URL_PATTERN.exec(value);
    if (!m) return false;
    const [, scheme, authority, path, query] = m;
    if (scheme === undefined || !SCHEME.test(scheme)) return false;
    if (authority === undefined || !this.isValidAuthority(authority)) return false;
    if (!this.isValidPath(path)) return false;
    return query === undefined || !BAD_PERCENT.test(query);
  }

  private isValidAuthority(authority: string): boolean {
    const m = AUTHORITY.exec(authority);
    if (!m) return false;
    const [, hostIP, port, extra] = m;
    const ip = IPV4.exec(hostIP);
    if (ip) {
      for (let i = 1; i <= 4; i++) if (Number(ip[i]) > 255) return false;
    } else {
      if (!DOMAIN.test(hostIP)) return false;
      const labels = hostIP.split('.');
      const topLevel = labels[labels.length - 1];
      if (topLevel.length < 2 || topLevel.length > this.tldLength) return false;
      if (!/^[a-zA-Z]/.test(topLevel)) return false;
      if (labels.length < 2) return false;
    }
    if (port !== undefined && !PORT.test(port)) return false;
    return extra === undefined || extra.trim() === '';
  }

  private isValidPath(path: string): boolean {
    if (!PATH.test(path) || BAD_PERCENT.test(path)) return false;
    const slash2 = countToken('//', path);
    const slash = countToken('/', path);
    const dot2 = countToken('..', path);
    return dot2 <= 0 || slash - slash2 - 1 > dot2;
  }
}
