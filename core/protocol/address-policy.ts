/**
 * The address policy (SSRF guard): which IP addresses the crawler may connect to. `http.address.deny`
 * lists presets (`loopback`, `private`, `link-local`, `metadata`) and CIDRs or addresses;
 * `http.address.allow` lists exceptions. Protocols check it on the resolved address — before the
 * connection (every DNS answer) and again on the connected socket's peer address — so a host name
 * that resolves (or re-resolves: DNS rebinding) to 10.0.0.1, a redirect to 169.254.169.254, and
 * spellings such as `0x7f.1`, `2130706433` or `[::ffff:127.0.0.1]` are all refused. Empty by
 * default (Nutch connects anywhere); an application crawling URLs its users type in turns it on.
 */
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { Configuration } from '../config/configuration.js';
import { NutchError } from '../errors.js';

export const ADDRESS_DENY_PROPERTY = 'http.address.deny';
export const ADDRESS_ALLOW_PROPERTY = 'http.address.allow';

/** The ranges behind each preset name. */
export const ADDRESS_PRESETS: Record<string, string[]> = {
  // 0.0.0.0 and :: reach the local host on Linux
  loopback: ['127.0.0.0/8', '::1/128', '0.0.0.0/8', '::/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7'],
  'link-local': ['169.254.0.0/16', 'fe80::/10'],
  // cloud instance metadata endpoints (AWS, GCP, Azure; AWS IPv6; Alibaba)
  metadata: ['169.254.169.254/32', 'fd00:ec2::254/128', '100.100.100.200/32'],
};

/** Resolves a host name to all its addresses (dns.lookup with `all: true`); replaceable to test DNS rebinding. */
export type AddressResolver = (hostname: string, options: LookupOptions & { all: true }, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

interface Rule {
  name: string;
  list: BlockList;
}

function family(address: string): 'ipv4' | 'ipv6' {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
}

function ruleFor(entry: string, property: string): Rule {
  const name = entry.trim();
  const list = new BlockList();
  const ranges = ADDRESS_PRESETS[name.toLowerCase()] ?? [name];
  for (const range of ranges) {
    const [addr, bits] = range.split('/');
    const f = isIP(addr ?? '');
    const prefix = bits === undefined ? (f === 6 ? 128 : 32) : Number(bits);
    if (!f || !Number.isInteger(prefix) || prefix < 0 || prefix > (f === 6 ? 128 : 32)) {
      throw new NutchError('NUTCH_CONFIG_INVALID_VALUE',
        `Invalid value for property "${property}": ${JSON.stringify(name)} is neither a preset (${Object.keys(ADDRESS_PRESETS).join(', ')}) nor an IP address or CIDR range.`,
        { property });
    }
    list.addSubnet(addr!, prefix, f === 6 ? 'ipv6' : 'ipv4');
  }
  return { name, list };
}

/** Strips the brackets of an IPv6 URL host. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

export class AddressPolicy {
  private constructor(private readonly deny: Rule[], private readonly allow: Rule[], private readonly resolve: AddressResolver) {}

  /** The policy of the configuration, or null when nothing is denied. `resolve` defaults to dns.lookup. */
  static fromConf(conf: Configuration, resolve: AddressResolver = dnsLookup): AddressPolicy | null {
    const deny = conf.getStrings(ADDRESS_DENY_PROPERTY).flatMap((s) => s.split(/[\s,]+/)).filter(Boolean);
    if (deny.length === 0) return null;
    const allow = conf.getStrings(ADDRESS_ALLOW_PROPERTY).flatMap((s) => s.split(/[\s,]+/)).filter(Boolean);
    return new AddressPolicy(deny.map((e) => ruleFor(e, ADDRESS_DENY_PROPERTY)), allow.map((e) => ruleFor(e, ADDRESS_ALLOW_PROPERTY)), resolve);
  }

  /** The deny entry that refuses this IP address, or null when it may be connected to. */
  deniedBy(address: string): string | null {
    const ip = bareHost(address);
    if (!isIP(ip)) return 'not an IP address';
    const f = family(ip);
    if (this.allow.some((r) => r.list.check(ip, f))) return null;
    return this.deny.find((r) => r.list.check(ip, f))?.name ?? null;
  }

  /** Throws NUTCH_ADDRESS_DENIED when the address is refused. */
  check(address: string, host: string): void {
    const rule = this.deniedBy(address);
    if (rule !== null) throw addressDenied(address, host, rule);
  }

  /**
   * A drop-in for dns.lookup (net.connect's `lookup` option): refused answers are removed; when none
   * is left the lookup fails with NUTCH_ADDRESS_DENIED.
   */
  readonly lookup = (hostname: string, options: LookupOptions, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void): void => {
    this.resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const allowed = addresses.filter((a) => this.deniedBy(a.address) === null);
      if (allowed.length === 0) {
        const first = addresses[0]?.address ?? hostname;
        return callback(addressDenied(first, hostname, this.deniedBy(first) ?? 'no address') as NodeJS.ErrnoException, '');
      }
      if (options.all) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

export function addressDenied(address: string, host: string, rule: string): NutchError {
  return new NutchError('NUTCH_ADDRESS_DENIED',
    `Connection to ${host}${bareHost(host) === bareHost(address) ? '' : ` (${address})`} refused by ${ADDRESS_DENY_PROPERTY} (${rule}); add the address to ${ADDRESS_ALLOW_PROPERTY} to allow it.`,
    { host, address, property: ADDRESS_DENY_PROPERTY });
}

export function isAddressDenied(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e.code === 'NUTCH_ADDRESS_DENIED') return true;
  }
  return false;
}
