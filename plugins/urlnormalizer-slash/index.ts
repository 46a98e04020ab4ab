/**
 * Nutch's SlashURLNormalizer: per host (slashes.txt), paths get a trailing slash (+) or lose it (-).
 * The root path is never touched, and a slash is only added when the last path segment does not
 * look like a file name (no dot among the last six characters), as Nutch. Query and fragment stay.
 */
import type { PluginContext, URLNormalizer } from '../../sdk/plugin.js';
import { loadSlashRules } from './rules.js';

export class SlashURLNormalizer implements URLNormalizer {
  private readonly rules: Map<string, boolean>;

  constructor(ctx: PluginContext) {
    this.rules = loadSlashRules(ctx);
  }

  normalize(url: string): string {
    const schemeEnd = url.indexOf('://');
    if (schemeEnd <= 0 || this.rules.size === 0) return url;
    const authStart = schemeEnd + 3;
    let pathStart = authStart;
    while (pathStart < url.length) {
      const c = url.charCodeAt(pathStart);
      if (c === 0x2f || c === 0x3f || c === 0x23) break;
      pathStart++;
    }
    const at = url.lastIndexOf('@', pathStart - 1);
    const hostStart = at >= authStart ? at + 1 : authStart;
    const colon = url.charCodeAt(hostStart) === 0x5b ? url.indexOf(':', url.indexOf(']', hostStart)) : url.indexOf(':', hostStart);
    const hostEnd = colon >= 0 && colon < pathStart ? colon : pathStart;
    const addSlash = this.rules.get(url.slice(hostStart, hostEnd).toLowerCase());
    if (addSlash === undefined) return url;

    let pathEnd = pathStart;
    while (pathEnd < url.length && url.charCodeAt(pathEnd) !== 0x3f && url.charCodeAt(pathEnd) !== 0x23) pathEnd++;
    const path = url.slice(pathStart, pathEnd);
    if (path.length <= 1) return url; // the root: "/" is always set by urlnormalizer-basic
    const trailingSlash = path.endsWith('/');
    if (addSlash && !trailingSlash) {
      const lastDot = path.lastIndexOf('.');
      if (path.length < 6 || lastDot === -1 || lastDot < path.length - 6) return url.slice(0, pathEnd) + '/' + url.slice(pathEnd);
    } else if (!addSlash && trailingSlash) {
      return url.slice(0, pathEnd - 1) + url.slice(pathEnd);
    }
    return url;
  }
}
