/**
 * The hosts (or domains, by generate.count.mode) that generate.max.count counts, interned as small
 * integers: each candidate carries its host's id rather than a string, and the per-host limits and
 * the overflow log look the name up by id.
 */
import type { URLNormalizers } from '../../extension-points/url-normalizer.js';
import { domainOf, hostOf } from '../../url/url-parts.js';

export class HostIds {
  /** Host or domain names by id. */
  readonly names: string[] = [];
  private readonly ids = new Map<string, number>();

  /**
   * `normalizers`: the generate_host_count scope (null with -noNorm), applied before the host is
   * taken, as Nutch's Generator does; `byDomain`: count per domain rather than per host.
   */
  constructor(private readonly normalizers: URLNormalizers | null, private readonly byDomain: boolean) {}

  /** The id of the URL's host or domain; null when the (normalised) URL has none. */
  of(url: string): number | null {
    const normalised = this.normalizers ? this.normalizers.normalize(url) : url;
    const host = normalised === null ? null : hostOf(normalised);
    if (host === null) return null;
    const key = this.byDomain ? domainOf(host) : host;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.names.push(key) - 1;
      this.ids.set(key, id);
    }
    return id;
  }
}
