/**
 * Nutch's HostURLNormalizer: replaces a URL's host by its mapping in host-urlnormalizer.txt. An exact
 * host rule wins; else wildcard rules `*.<domain>` are tried from the registered domain upwards to
 * longer suffixes (never the whole host), as Nutch's loop does. URLs it cannot parse pass unchanged.
 */
import { hostSpan, type PluginContext, type URLNormalizer } from '../../sdk/plugin.js';
import { loadHostRules } from './rules.js';

export class HostURLNormalizer implements URLNormalizer {
  private readonly hosts: Map<string, string>;

  constructor(ctx: PluginContext) {
    this.hosts = loadHostRules(ctx);
  }

  normalize(url: string): string {
    if (this.hosts.size === 0) return url;
    const span = hostSpan(url);
    if (span === null) return url;
    const { hostStart, hostEnd } = span;
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
