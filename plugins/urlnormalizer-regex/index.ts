/**
 * Nutch's RegexURLNormalizer: ordered pattern -> substitution rules (Java regex syntax, translated)
 * applied with replace-all to every URL. Rules per scope come from `urlnormalizer.regex.file.<scope>`;
 * a scope without its own (non-empty) rule file uses the default rules, as Nutch. Everything is read
 * and compiled when the plugin loads: a bad rule fails the load with file and line.
 */
import { readFileSync } from 'node:fs';
import { NutchError, resolveConfFile, type NormalizerScope, type PluginContext, type URLNormalizer } from '../../sdk/plugin.js';
import { groupNamesOf, translateJavaRegex, translateJavaReplacement } from '../lib-regex-filter/index.js';
import { parseRules, RuleSyntaxError, type RawRule } from './rule-file.js';

export interface RegexRule {
  regex: RegExp;
  replacement: string;
}

const SCOPE_PREFIX = 'urlnormalizer.regex.file.';

function invalid(ctx: PluginContext, where: string, message: string, cause?: unknown): NutchError {
  const [file, line] = where.split(/:(?=\d+$)/);
  return new NutchError('NUTCH_RULE_FILE_INVALID', `${ctx.plugin.id}: ${where}: ${message}`, { plugin: ctx.plugin.id, file, line: line ? Number(line) : undefined }, { cause });
}

export function compileRules(ctx: PluginContext, raw: RawRule[]): RegexRule[] {
  return raw.map((r) => {
    let regex: RegExp;
    let jsGroups: number[];
    try {
      const t = translateJavaRegex(r.pattern, { use: 'replace' });
      regex = new RegExp(t.source, t.flags + 'g');
      jsGroups = t.groups;
    } catch (err) {
      throw invalid(ctx, r.where, `invalid regular expression ${JSON.stringify(r.pattern)}: ${(err as Error).message}`, err);
    }
    try {
      return { regex, replacement: translateJavaReplacement(r.substitution, jsGroups, groupNamesOf(regex)) };
    } catch (err) {
      throw invalid(ctx, r.where, `invalid substitution ${JSON.stringify(r.substitution)}: ${(err as Error).message}`, err);
    }
  });
}

function readRules(ctx: PluginContext, text: string, source: string): RegexRule[] {
  try {
    return compileRules(ctx, parseRules(text, source));
  } catch (err) {
    if (err instanceof RuleSyntaxError) throw invalid(ctx, err.where, err.message.slice(err.where.length + 2), err);
    throw err;
  }
}

function loadFile(ctx: PluginContext, property: string): RegexRule[] {
  const name = ctx.conf.getString(property);
  if (name === '') return [];
  const path = resolveConfFile(ctx.conf, name, property);
  const rules = readRules(ctx, readFileSync(path, 'utf8'), path);
  ctx.log.info(`${ctx.plugin.id}: ${rules.length} rules from ${path} (${property})`);
  return rules;
}

export class RegexURLNormalizer implements URLNormalizer {
  private readonly defaultRules: RegexRule[];
  private readonly scopedRules = new Map<string, RegexRule[]>();

  constructor(ctx: PluginContext) {
    const inline = ctx.conf.getString('urlnormalizer.regex.rules');
    this.defaultRules = inline.trim() !== '' ? readRules(ctx, inline, 'urlnormalizer.regex.rules') : loadFile(ctx, 'urlnormalizer.regex.file');
    for (const property of ctx.conf.names()) {
      if (!property.startsWith(SCOPE_PREFIX) || !ctx.conf.has(property)) continue;
      const rules = loadFile(ctx, property);
      if (rules.length > 0) this.scopedRules.set(property.slice(SCOPE_PREFIX.length), rules);
    }
  }

  normalize(url: string, scope: NormalizerScope): string {
    const rules = this.scopedRules.get(scope) ?? this.defaultRules;
    for (let i = 0; i < rules.length; i++) url = url.replace(rules[i].regex, rules[i].replacement);
    return url;
  }
}
