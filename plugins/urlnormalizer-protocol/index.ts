/**
 * Nutch's ProtocolURLNormalizer: forces the protocol listed in protocols.txt (e.g. https) for the
 * URLs of a host, or of every host of a `*.domain`; the exact host wins, then the longest domain.
 * A URL that names a port keeps its protocol. URLs it cannot parse pass unchanged.
 */
import type { PluginContext, URLNormalizer } from '../../sdk/plugin.js';
import { loadProtocolRules, type ProtocolRules } from './rules.js';

export class ProtocolURLNormalizer implements URLNormalizer {
  private readonly rules: ProtocolRules;

  constructor(ctx: PluginContext) {
    this.rules = loadProtocolRules(ctx);
  }

  normalize(url: string): string {
    const schemeEnd = url.indexOf('://');
    if (schemeEnd <= 0) return url;
    const authStart = schemeEnd + 3;
    let authEnd = authStart;
    while (authEnd < url.length) {
      const c = url.charCodeAt(authEnd);
      if (c === 0x2f || c === 0x3f || c === 0x23) break;
      authEnd++;
    }
    const at = url.lastIndexOf('@', authEnd - 1);
    const hostStart = at >= authStart ? at + 1 : authStart;
    if (url.charCodeAt(hostStart) === 0x5b) return url; // IPv6 literals are never listed
    const colon = url.indexOf(':', hostStart);
    if (colon >= 0 && colon < authEnd) return url; // a port is set: leave the protocol alone
    const host = url.slice(hostStart, authEnd).toLowerCase();
    const required = this.rules.hosts.get(host) ?? this.domainProtocol(host);
    if (required === undefined || url.slice(0, schemeEnd).toLowerCase() === required) return url;
    return required + url.slice(schemeEnd);
  }

  /** The protocol of the longest listed domain above the host. */
  private domainProtocol(host: string): string | undefined {
    if (this.rules.domains.size === 0) return undefined;
    for (let dot = host.indexOf('.'); dot >= 0; dot = host.indexOf('.', dot + 1)) {
      const protocol = this.rules.domains.get(host.slice(dot + 1));
      if (protocol !== undefined) return protocol;
    }
    return undefined;
  }
}
