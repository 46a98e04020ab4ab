/**
 * Parser — combine rule: FIRST SUCCESS. The parsers for a content type come from parse-plugins.json
 * (exact type, then its aliases, then the `*` fallback), else every parser whose `contentType`
 * parameter matches; they are tried in that order and the first successful parse wins.
 */
import type { Content } from '../model/content.js';
import type { ParseResult } from '../model/parse.js';
import type { HtmlParseFilters } from './html-parse-filter.js';

/**
 * What the parse worker hands a parser besides the content: the HtmlParseFilter chain, which an HTML
 * parser runs on its DOM before returning (as Nutch's HtmlParser calls HtmlParseFilters itself).
 */
export interface ParseContext {
  htmlParseFilters?: HtmlParseFilters;
}

export interface Parser {
  getParse(content: Content, parseContext?: ParseContext): Promise<ParseResult> | ParseResult;
}

/** parse-plugins.json: content type -> ordered extension ids; `*` is the fallback; aliases map short names to ids. */
export interface ParsePluginsMapping {
  mimeTypes: Record<string, string[]>;
  aliases?: Record<string, string>;
}

export interface ParserCandidate {
  extensionId: string;
  aliases: readonly string[];
  /** Content types from the `contentType` parameter (regex or exact, comma-separated there). */
  contentTypes: readonly string[];
}

/** The ordered extension ids to try for a content type. */
export function selectParsers(contentType: string, mapping: ParsePluginsMapping | null, candidates: readonly ParserCandidate[]): string[] {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const resolve = (name: string): string | undefined => {
    const target = mapping?.aliases?.[name] ?? name;
    return candidates.find((c) => c.extensionId === target || c.aliases.includes(target))?.extensionId;
  };
  if (mapping) {
    const listed = mapping.mimeTypes[type] ?? mapping.mimeTypes[type.replace(/\/.*$/, '/*')];
    const ids = (listed ?? []).map(resolve).filter((x): x is string => !!x);
    if (ids.length) return dedupe(ids);
  }
  const byParam = candidates.filter((c) => c.contentTypes.some((t) => t === type || t === '*' || safeMatch(t, type))).map((c) => c.extensionId);
  if (byParam.length) return dedupe(byParam);
  const fallback = (mapping?.mimeTypes['*'] ?? []).map(resolve).filter((x): x is string => !!x);
  return dedupe(fallback);
}

function safeMatch(pattern: string, type: string): boolean {
  if (!/[*^$()[\]|+?\\]/.test(pattern)) return false;
  try {
    return new RegExp(`^(?:${pattern})$`, 'i').test(type);
  } catch {
    return false;
  }
}

function dedupe(ids: string[]): string[] {
  return [...new Set(ids)];
}
