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
    return isPathAllowed(this.rules, normalizePath(path));
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

const HEX = /^[0-9a-fA-F]{2}$/;
const encoder = new TextEncoder();

/**
 * The canonical form in which robots.txt patterns and URL paths are compared: escapes of printable
 * ASCII decoded (`/%7Emak` = `/~mak`), everything else percent-encoded as UTF-8 with upper-case hex
 * (`/你` = `/%E4%BD%A0`), a stray `%` as `%25`. `%2A` and `%24` stay encoded, so that in a pattern
 * they mean a literal `*` and `$`, not a wildcard and an anchor; so does a `$` before a pattern's end.
 */
export function normalizePattern(pattern: string): string {
  return canonicalize(pattern, false);
}

/** A URL path (with query) in the form of normalizePattern; its literal `*` and `$` become `%2A`, `%24`. */
export function normalizePath(path: string): string {
  return canonicalize(path, true);
}

function canonicalize(s: string, isPath: boolean): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const code = ch.charCodeAt(0);
    if (ch === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!HEX.test(hex)) {
        out += '%25';
        continue;
      }
      const byte = Number.parseInt(hex, 16);
      i += 2;
      out += byte > 0x20 && byte < 0x7f && byte !== 0x25 && byte !== 0x2a && byte !== 0x24 ? String.fromCharCode(byte) : '%' + hex.toUpperCase();
    } else if ((isPath && ch === '*') || (ch === '$' && (isPath || i < s.length - 1))) {
      out += ch === '*' ? '%2A' : '%24'; // in a pattern only a final `$` anchors
    } else if (code > 0x20 && code < 0x7f) {
      out += ch;
    } else {
      const cp = s.codePointAt(i)!;
      if (cp > 0xffff) i++;
      for (const b of encoder.encode(String.fromCodePoint(cp))) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
    }
  }
  return out;
}
