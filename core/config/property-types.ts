/**
 * Property definitions (nutch-default.json and plugin manifests' `config`) and value coercion.
 * Values arrive as JSON values (nutch-site.json, programmatic) or strings (-D, Nutch's XML habits);
 * both coerce to the declared type, as Hadoop's Configuration getters do.
 */
export type PropertyType = 'string' | 'int' | 'float' | 'boolean' | 'strings' | 'regex' | 'duration' | 'json';

export interface PropertyDefinition {
  type: PropertyType;
  default: unknown;
  description: string;
  min?: number;
  max?: number;
  enum?: string[];
  /** Who declared it: "core" or a plugin id. */
  declaredBy?: string;
}

export type CoerceResult = { ok: true; value: unknown } | { ok: false; reason: string };

export function coerce(def: PropertyDefinition, raw: unknown): CoerceResult {
  if (raw === null || raw === undefined) return { ok: true, value: raw };
  switch (def.type) {
    case 'string': {
      if (typeof raw === 'string') return checkEnum(def, raw);
      if (typeof raw === 'number' || typeof raw === 'boolean') return checkEnum(def, String(raw));
      return { ok: false, reason: `expected a string, got ${describe(raw)}` };
    }
    case 'int':
    case 'float': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : NaN;
      if (!Number.isFinite(n)) return { ok: false, reason: `expected ${def.type === 'int' ? 'an integer' : 'a number'}, got ${describe(raw)}` };
      if (def.type === 'int') {
        // "1.5e3" or "99999999999999999999" are not integers a Java Long/Integer would parse either
        if (typeof raw === 'string' && !/^[+-]?\d+$/.test(raw.trim())) return { ok: false, reason: `expected an integer, got ${describe(raw)}` };
        if (!Number.isSafeInteger(n)) return { ok: false, reason: Number.isInteger(n) ? `${raw} is too large for an integer (at most ${Number.MAX_SAFE_INTEGER})` : `expected an integer, got ${n}` };
      }
      if (def.min !== undefined && n < def.min) return { ok: false, reason: `${n} is below the minimum ${def.min}` };
      if (def.max !== undefined && n > def.max) return { ok: false, reason: `${n} is above the maximum ${def.max}` };
      return { ok: true, value: n };
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (typeof raw === 'string' && /^(true|false)$/i.test(raw.trim())) return { ok: true, value: raw.trim().toLowerCase() === 'true' };
      return { ok: false, reason: `expected true or false, got ${describe(raw)}` };
    }
    case 'strings': {
      if (Array.isArray(raw)) {
        if (raw.every((x) => typeof x === 'string')) return { ok: true, value: raw };
        return { ok: false, reason: 'expected an array of strings' };
      }
      if (typeof raw === 'string') return { ok: true, value: splitList(raw) };
      return { ok: false, reason: `expected a list (array or comma-separated string), got ${describe(raw)}` };
    }
    case 'regex': {
      if (typeof raw !== 'string') return { ok: false, reason: `expected a regular expression string, got ${describe(raw)}` };
      try {
        new RegExp(raw);
        return { ok: true, value: raw };
      } catch (err) {
        return { ok: false, reason: `regular expression does not compile: ${(err as Error).message}` };
      }
    }
    case 'duration': {
      const ms = parseDuration(raw);
      if (ms === undefined) return { ok: false, reason: `expected a duration (number of ms, or "500ms", "30s", "5m", "2h", "1d"), got ${describe(raw)}` };
      return { ok: true, value: raw };
    }
    case 'json':
      return { ok: true, value: raw };
  }
}

function checkEnum(def: PropertyDefinition, value: string): CoerceResult {
  if (def.enum && !def.enum.includes(value)) return { ok: false, reason: `"${value}" is not one of ${def.enum.join(', ')}` };
  return { ok: true, value };
}

function describe(raw: unknown): string {
  if (typeof raw === 'string') return JSON.stringify(raw);
  if (Array.isArray(raw)) return 'an array';
  return `${typeof raw} ${JSON.stringify(raw)}`;
}

/** Nutch's list syntax: comma- or whitespace-separated (plugin order lists use spaces). */
export function splitList(raw: string): string[] {
  return raw.split(/[\s,]+/).filter((s) => s.length > 0);
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration in milliseconds: a plain number is milliseconds; a string may carry a unit. */
export function parseDuration(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw !== 'string') return undefined;
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(raw);
  if (!m) return undefined;
  return Number(m[1]) * UNIT_MS[m[2] ?? 'ms']!;
}

/** Levenshtein distance, for "did you mean" on unknown property names. */
export function editDistance(a: string, b: string): number {
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDist = Infinity;
  for (const c of candidates) {
    const d = editDistance(name, c);
    if (d < bestDist) {
      best = c;
      bestDist = d;
    }
  }
  return best !== undefined && bestDist <= Math.max(3, Math.floor(name.length / 3)) ? best : undefined;
}
