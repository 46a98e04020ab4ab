/**
 * Configuration: Nutch's layered properties with provenance.
 * Layers, lowest first: nutch-default.json < plugin `config` defaults < nutch-site.json < programmatic < -D.
 * Every value remembers its layer and source, for error messages and `nutch showproperties`.
 */
import { NutchError } from '../errors.js';
import {
  closestName, coerce, parseDuration, splitList, type PropertyDefinition,
} from './property-types.js';

export type LayerName = 'default' | 'plugin' | 'site' | 'programmatic' | 'cli';
const LAYER_RANK: Record<LayerName, number> = { default: 0, plugin: 1, site: 2, programmatic: 3, cli: 4 };

export interface ValueSource {
  layer: LayerName;
  /** File path, plugin id, "createNutch()" or "-D". */
  source: string;
  /** JSON pointer inside the source file, when there is one. */
  pointer?: string;
  /** Line inside the source file (nutch-site.xml, nutch-default.xml), when there is one. */
  line?: number;
}

interface Entry {
  value: unknown;
  from: ValueSource;
}

export interface ConfigWarning {
  property: string;
  message: string;
}

export class Configuration {
  private readonly defs = new Map<string, PropertyDefinition>();
  private readonly values = new Map<string, Entry>();
  private readonly unsupported = new Set<string>();
  /**
   * Sources whose undeclared properties are summed up in one warning instead of one each: a Nutch
   * nutch-default.xml sets hundreds of properties, most of them Hadoop's or of plugins nutch-ts lacks.
   */
  private readonly defaultsFiles = new Set<string>();
  /** Property families such as `urlnormalizer.order.<scope>`: one definition for every name of the form. */
  private readonly patterns: { name: string; regex: RegExp; def: PropertyDefinition }[] = [];
  /** Directories searched for the site file and for files named by properties, in order. */
  readonly confDirs: string[];

  constructor(confDirs: string[] = []) {
    this.confDirs = confDirs;
  }

  /** Declares properties (from nutch-default.json or a plugin manifest) with their defaults. */
  declare(defs: Record<string, PropertyDefinition>, declaredBy: string, layer: LayerName = 'default', source = declaredBy): void {
    for (const [name, def] of Object.entries(defs)) {
      const existing = this.defs.get(name);
      if (existing && existing.declaredBy !== declaredBy) {
        throw new NutchError(
          'NUTCH_CONFIG_INVALID_VALUE',
          `Property "${name}" is declared twice: by ${existing.declaredBy} and by ${declaredBy}. Each property is declared once.`,
          { property: name },
        );
      }
      this.defs.set(name, { ...def, declaredBy });
      const current = this.values.get(name);
      if (def.default !== undefined && (!current || LAYER_RANK[current.from.layer] <= LAYER_RANK[layer])) {
        this.values.set(name, { value: def.default, from: { layer, source } });
      }
    }
  }

  /** Declares a property family; `<placeholder>` matches one name segment (letters, digits, _ and -). */
  declarePattern(pattern: string, def: PropertyDefinition, declaredBy: string): void {
    const source = pattern.split(/<[^>]+>/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\w-]+');
    this.patterns.push({ name: pattern, regex: new RegExp(`^${source}$`), def: { ...def, declaredBy } });
  }

  /** Property families declared with declarePattern(), by pattern. */
  patternDefinitions(): ReadonlyMap<string, PropertyDefinition> {
    return new Map(this.patterns.map((p) => [p.name, p.def]));
  }

  private lookup(name: string): PropertyDefinition | undefined {
    return this.defs.get(name) ?? this.patterns.find((p) => p.regex.test(name))?.def;
  }

  /** Marks a file as a full defaults file (Nutch's nutch-default.xml): see defaultsFiles. */
  markDefaultsFile(source: string): void {
    this.defaultsFiles.add(source);
  }

  /** A Nutch (or Hadoop) property nutch-ts knows of and does not support. */
  isUnsupported(name: string): boolean {
    return this.unsupported.has(name);
  }

  markUnsupported(names: Iterable<string>): void {
    for (const n of names) this.unsupported.add(n);
  }

  /** Sets a raw value in a layer; a lower layer never overrides a higher one. Validated by validate(). */
  set(name: string, value: unknown, from: ValueSource = { layer: 'programmatic', source: 'set()' }): void {
    const current = this.values.get(name);
    if (current && LAYER_RANK[current.from.layer] > LAYER_RANK[from.layer]) return;
    this.values.set(name, { value, from });
  }

  setAll(values: Record<string, unknown>, from: Omit<ValueSource, 'pointer'>, pointerBase = ''): void {
    for (const [k, v] of Object.entries(values)) {
      if (k.startsWith('$')) continue;
      this.set(k, v, from.layer === 'site' ? { ...from, pointer: `${pointerBase}/${escapePointer(k)}` } : { ...from });
    }
  }

  has(name: string): boolean {
    return this.values.has(name) && this.values.get(name)!.value !== undefined;
  }

  isDeclared(name: string): boolean {
    return this.lookup(name) !== undefined;
  }

  definition(name: string): PropertyDefinition | undefined {
    return this.lookup(name);
  }

  definitions(): ReadonlyMap<string, PropertyDefinition> {
    return this.defs;
  }

  sourceOf(name: string): ValueSource | undefined {
    return this.values.get(name)?.from;
  }

  /** Every set property name, sorted. */
  names(): string[] {
    return [...new Set([...this.defs.keys(), ...this.values.keys()])].sort();
  }

  /**
   * Checks every value against its definition. Wrong types throw NUTCH_CONFIG_INVALID_VALUE naming the
   * property and where the value came from; unknown keys become warnings with the closest known name.
   */
  validate(): ConfigWarning[] {
    const warnings: ConfigWarning[] = [];
    const ignoredDefaults = new Map<string, string[]>();
    for (const [name, entry] of this.values) {
      const def = this.lookup(name);
      if (!def) {
        if (entry.from.layer === 'default' || entry.from.layer === 'plugin') continue;
        if (this.defaultsFiles.has(entry.from.source)) {
          ignoredDefaults.set(entry.from.source, [...(ignoredDefaults.get(entry.from.source) ?? []), name]);
          continue;
        }
        if (this.unsupported.has(name)) {
          warnings.push({ property: name, message: `Property "${name}" (${describeSource(entry.from)}) is a Nutch property that nutch-ts does not support; it is ignored.` });
          continue;
        }
        const near = closestName(name, this.defs.keys());
        warnings.push({
          property: name,
          message: `Unknown property "${name}" (${describeSource(entry.from)})${near ? `; did you mean "${near}"?` : '.'}`,
        });
        continue;
      }
      const r = coerce(def, entry.value);
      if (!r.ok) {
        throw new NutchError(
          'NUTCH_CONFIG_INVALID_VALUE',
          `Invalid value for property "${name}" (${describeSource(entry.from)}): ${r.reason}. ${def.description ? `It is: ${firstSentence(def.description)}` : ''}`.trim(),
          { property: name, file: entry.from.layer === 'site' ? entry.from.source : undefined, pointer: entry.from.pointer, line: entry.from.line },
        );
      }
    }
    for (const [file, names] of ignoredDefaults) {
      warnings.push({
        property: names[0]!,
        message: `${file}: ${names.length} of its properties are not used by nutch-ts (Hadoop's, or of plugins nutch-ts does not have) and are ignored; \`nutch convert-conf\` lists them.`,
      });
    }
    return warnings;
  }

  /** The value coerced to its declared type; an undeclared name is a programming error. */
  get(name: string): unknown {
    const entry = this.values.get(name);
    const def = this.lookup(name);
    if (!def) {
      if (entry) return entry.value;
      throw new NutchError('NUTCH_CONFIG_UNKNOWN_PROPERTY', `Property "${name}" is not declared in nutch-default.json or any active plugin's config.`, { property: name });
    }
    if (!entry || entry.value === undefined || entry.value === null) return def.default ?? undefined;
    const r = coerce(def, entry.value);
    if (!r.ok) {
      throw new NutchError('NUTCH_CONFIG_INVALID_VALUE', `Invalid value for property "${name}" (${describeSource(entry.from)}): ${r.reason}`, {
        property: name, file: entry.from.layer === 'site' ? entry.from.source : undefined, pointer: entry.from.pointer, line: entry.from.line,
      });
    }
    return r.value;
  }

  getString(name: string, fallback = ''): string {
    const v = this.get(name);
    if (v === undefined || v === null) return fallback;
    return Array.isArray(v) ? v.join(',') : String(v);
  }

  getInt(name: string, fallback = 0): number {
    const v = this.get(name);
    const n = typeof v === 'number' ? v : Number(v);
    return v === undefined || v === null || v === '' || !Number.isFinite(n) ? fallback : Math.trunc(n);
  }

  getFloat(name: string, fallback = 0): number {
    const v = this.get(name);
    const n = typeof v === 'number' ? v : Number(v);
    return v === undefined || v === null || v === '' || !Number.isFinite(n) ? fallback : n;
  }

  getBoolean(name: string, fallback = false): boolean {
    const v = this.get(name);
    if (typeof v === 'boolean') return v;
    if (typeof v === 'string') return v.toLowerCase() === 'true';
    return fallback;
  }

  /** A list: an array, or Nutch's comma/whitespace-separated string. */
  getStrings(name: string): string[] {
    const v = this.get(name);
    if (v === undefined || v === null || v === '') return [];
    if (Array.isArray(v)) return v.map(String);
    return splitList(String(v));
  }

  getRegex(name: string, flags = ''): RegExp | null {
    const v = this.get(name);
    if (v === undefined || v === null || v === '') return null;
    return new RegExp(String(v), flags);
  }

  /** A duration in milliseconds. */
  getDuration(name: string, fallbackMs = 0): number {
    const ms = parseDuration(this.get(name));
    return ms ?? fallbackMs;
  }

  /** A read-only copy for a parse worker or a child component: same values and provenance. */
  snapshot(): ConfigurationSnapshot {
    const defs: Record<string, PropertyDefinition> = {};
    for (const [k, d] of this.defs) defs[k] = d;
    const values: Record<string, Entry> = {};
    for (const [k, e] of this.values) values[k] = e;
    const patterns = this.patterns.map((p) => ({ name: p.name, def: p.def }));
    return { confDirs: this.confDirs, defs, values, unsupported: [...this.unsupported], patterns, defaultsFiles: [...this.defaultsFiles] };
  }

  /** A copy to layer values over without touching this one (same values, provenance and declarations). */
  derive(): Configuration {
    return Configuration.fromSnapshot(this.snapshot());
  }

  static fromSnapshot(s: ConfigurationSnapshot): Configuration {
    const conf = new Configuration(s.confDirs);
    for (const [k, d] of Object.entries(s.defs)) conf.defs.set(k, d);
    for (const [k, e] of Object.entries(s.values)) conf.values.set(k, e);
    conf.markUnsupported(s.unsupported);
    for (const p of s.patterns ?? []) conf.declarePattern(p.name, p.def, p.def.declaredBy ?? 'core');
    for (const f of s.defaultsFiles ?? []) conf.markDefaultsFile(f);
    return conf;
  }
}

export interface ConfigurationSnapshot {
  confDirs: string[];
  defs: Record<string, PropertyDefinition>;
  values: Record<string, { value: unknown; from: ValueSource }>;
  unsupported: string[];
  patterns?: { name: string; def: PropertyDefinition }[];
  defaultsFiles?: string[];
}

export function describeSource(from: ValueSource): string {
  switch (from.layer) {
    case 'default':
      return `default from ${from.source}`;
    case 'plugin':
      return `default from plugin ${from.source}`;
    case 'site':
      if (from.line !== undefined) return `set in ${from.source}:${from.line}`;
      return `set in ${from.source}${from.pointer ? ` at ${from.pointer}` : ''}`;
    case 'programmatic':
      return `set by ${from.source}`;
    case 'cli':
      // a value a command passes on as its own -D (crawl --time-limit-fetch) names that option
      return from.source && from.source !== '-D' ? `set by ${from.source}` : `set by -D on the command line`;
  }
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function firstSentence(s: string): string {
  const m = /^[^.]*\./.exec(s);
  return m ? m[0] : s;
}
