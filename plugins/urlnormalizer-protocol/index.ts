/**
 * Nutch's ProtocolURLNormalizer: forces the protocol listed in protocols.txt (e.g. https) for the
 * URLs of a host, or of every host of a `*.domain`; the exact host wins, then the longest domain.
 * A URL that names a port keeps its protocol. URLs it cannot parse pass unchanged.
 */
import { hostSpan, type PluginContext, type URLNormalizer } from '../../sdk/plugin.js';
import { loadProtocolRules, type ProtocolRules } from './rules.js';

export class ProtocolURLNormalizer implements URLNormalizer {
  private readonly rules: ProtocolRules;

  constructor(ctx: PluginContext) {
    this.rules = loadProtocolRules(ctx);
  }

  normalize(url: string): string {
    const span = hostSpan(url); // null for IPv6 literals: never listed
    if (span === null || span.hasPort) return url; // a port is set: leave the protocol alone
    const { schemeEnd } = span;
    const host = url.slice(span.hostStart, span.hostEnd).toLowerCase();
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
