/**
 * Where a URL filter's rules come from, as Nutch's filters look them up: the `<prefix>.rules`
 * property (inline text) takes precedence over the `<prefix>.file` property, which resolves against
 * the configuration directories (a missing file is NUTCH_CONFIG_FILE_NOT_FOUND). Shared by the
 * urlfilter-* plugins, as Nutch's lib-regex-filter is.
 */
import { readFileSync } from 'node:fs';
import { NutchError, resolveConfFile, type Configuration } from '../../sdk/plugin.js';

export interface RuleSource {
  /** File path, or `<property> (inline rules)`, for messages. */
  origin: string;
  /** Lines without their terminators (CRLF, LF or CR). */
  lines: string[];
}

export function readRuleSource(conf: Configuration, fileProperty: string, rulesProperty?: string): RuleSource {
  const inline = rulesProperty ? conf.getString(rulesProperty) : '';
  if (inline.trim() !== '') return { origin: `${rulesProperty} (inline rules)`, lines: splitLines(inline) };
  const fileName = conf.getString(fileProperty);
  if (!fileName) {
    throw new NutchError('NUTCH_CONFIG_INVALID_VALUE', `Property "${fileProperty}" is empty: name a rule file or set ${rulesProperty ?? fileProperty}.`, { property: fileProperty });
  }
  const path = resolveConfFile(conf, fileName, fileProperty);
  return { origin: path, lines: splitLines(readFileSync(path, 'utf8')) };
}

export function splitLines(text: string): string[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A rule-file error naming the file and the 1-based line. */
export function ruleError(source: RuleSource, line: number, message: string, text?: string): NutchError {
  const shown = text === undefined ? '' : `: ${JSON.stringify(text.length > 200 ? text.slice(0, 200) + '…' : text)}`;
  return new NutchError('NUTCH_RULE_FILE_INVALID', `${source.origin}:${line}: ${message}${shown}`, { file: source.origin, line });
}
