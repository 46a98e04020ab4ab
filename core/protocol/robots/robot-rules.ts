/**
 * The rules robots.txt gives one agent for one host: allow/disallow patterns, crawl-delay, sitemaps,
 * and the special sets Nutch uses (allow all, forbid all, defer visits).
 */
import type { RobotRules } from '../../extension-points/protocol.js';

export interface RobotRule {
  allow: boolean;
  /** Normalised pattern (see normalizePattern); `*` any run, trailing `$` end anchor. */
  pattern: string;
}

export type RobotRulesMode = 'rules' | 'allow-all' | 'forbid-all' | 'defer-visits';

export class RobotRulesSet implements RobotRules {
  constructor(
    readonly mode: RobotRulesMode,
    readonly rules: readonly RobotRule[] = [],
    private readonly crawlDelayMs = -1,
    private readonly sitemaps: readonly string[] = [],
  ) {}

  static allowAll(): RobotRulesSet {
    return new RobotRulesSet('allow-all');
  }

  static forbidAll(): RobotRulesSet {
    return new RobotRulesSet('forbid-all');
  }

  static deferVisits(): RobotRulesSet {
    return new RobotRulesSet('defer-visits');
  }

  isAllowed(url: string): boolean {
    if (this.mode === 'allow-all') return true;
    if (this.mode === 'forbid-all' || this.mode === 'defer-visits') return false;
    let path: string;
    try {
      const u = new URL(url);
      path = (u.pathname || '/') + u.search;
    } catch {
      return false;
    }
    if (path === '/robots.txt') return true; // RFC 9309 §2.2.2: always allowed
    return isPathAllowed(this.rules, normalizePattern(path));
  }

  getCrawlDelay(): number {
    return this.crawlDelayMs;
  }

  isDeferVisits(): boolean {
    return this.mode === 'defer-visits';
  }

  isAllowAll(): boolean {
    return this.mode === 'allow-all' || (this.mode === 'rules' && this.rules.every((r) => r.allow));
  }

  isAllowNone(): boolean {
    return this.mode === 'forbid-all';
  }

  getSitemaps(): string[] {
    return [...this.sitemaps];
  }
}

/** Longest match wins (pattern length in octets); an allow wins a tie; no match = allowed. */
export function isPathAllowed(rules: readonly RobotRule[], path: string): boolean {
  let best = -1;
  let allowed = true;
  for (const r of rules) {
    const len = r.pattern.length;
    if (len < best) continue;
    if (!matchPattern(r.pattern, path)) continue;
    if (len > best || r.allow) {
      best = len;
      allowed = r.allow;
    }
  }
  return allowed;
}

/** Wildcard match without regexes (no backtracking blow-up): `*` any run, `$` at the end anchors. */
export function matchPattern(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const p = anchored ? pattern.slice(0, -1) : pattern;
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (i < path.length) {
    if (j < p.length && p[j] !== '*' && p[j] === path[i]) {
      i++;
      j++;
    } else if (j < p.length && p[j] === '*') {
      star = j++;
      mark = i;
    } else if (!anchored && j === p.length) {
      return true; // prefix match: the rest of the path is free
    } else if (star >= 0) {
      j = star + 1;
      i = ++mark;
    } else return false;
  }
  while (j < p.length && p[j] === '*') j++;
  return j === p.length;
}

/** Percent-encodes non-ASCII and upper-cases %xx escapes, so patterns and paths compare alike. */
export function normalizePattern(p: string): string {
  let out = '';
  for (const ch of p) {
    const code = ch.codePointAt(0)!;
    if (code > 0x7e || code < 0x21) {
      for (const b of new TextEncoder().encode(ch)) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
    } else out += ch;
  }
  return out.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase());
}
