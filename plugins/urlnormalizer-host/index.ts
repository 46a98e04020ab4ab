/**
 * Nutch's HostURLNormalizer: replaces a URL's host by its mapping in host-urlnormalizer.txt. An exact
 * host rule wins; else wildcard rules `*.<domain>` are tried from the registered domain upwards to
 * longer suffixes (never the whole host), as Nutch's loop does. URLs it cannot parse pass unchanged.
 */
import type { PluginContext, URLNormalizer } from '../../sdk/plugin.js';
import { loadHostRules } from './rules.js';

export class HostURLNormalizer implements URLNormalizer {
  private readonly hosts: Map<string, string>;

  constructor(ctx: PluginContext) {
    this.hosts = loadHostRules(ctx);
  }

  normalize(url: string): string {
    const schemeEnd = url.indexOf('://');
    if (schemeEnd <= 0 || this.hosts.size === 0) return url;
    const authStart = schemeEnd + 3;
    let authEnd = authStart;
    while (authEnd < url.length) {
      const c = url.charCodeAt(authEnd);
      if (c === 0x2f || c === 0x3f || c === 0x23) break;
      authEnd++;
    }
    const at = url.lastIndexOf('@', authEnd - 1);
    const hostStart = at >= authStart ? at + 1 : authStart;
    if (url.charCodeAt(hostStart) === 0x5b) return url;
    const colon = url.indexOf(':', hostStart);
    const hostEnd = colon >= 0 && colon < authEnd ? colon : authEnd;
    const host = url.slice(hostStart, hostEnd).toLowerCase();
    const target = this.hosts.get(host) ?? this.wildcardTarget(host);
    if (target === undefined || target === host) return url;
    return url.slice(0, hostStart) + target + url.slice(hostEnd);
  }

  private wildcardTarget(host: string): string | undefined {
    const parts = host.split('.');
    let suffix = parts[parts.length - 1];
    for (let i = parts.length - 2; i > 0; i--) {
      suffix = parts[i] + '.' + suffix;
      const target = this.hosts.get('*.' + suffix);
      if (target !== undefined) return target;
    }
    return undefined;
  }
}
