/** Reads a JSON file, turning a syntax error into one that names the file, line and column. */
import { readFileSync } from 'node:fs';
import { NutchError, type ErrorCode } from '../errors.js';
import { jsonErrorOffset } from './json-error-offset.js';

export function readJsonFile(path: string, code: ErrorCode = 'NUTCH_CONFIG_INVALID_JSON'): unknown {
  const text = readFileSync(path, 'utf8');
  return parseJsonText(text, path, code);
}

export function parseJsonText(text: string, path: string, code: ErrorCode = 'NUTCH_CONFIG_INVALID_JSON'): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (err) {
    // V8 gives a position for some errors only ("Unexpected token" and "end of input" have none), so
    // the offset comes from our own scan (json-error-offset.ts); V8's wording (minus its echo of the whole text) is the reason.
    const offset = jsonErrorOffset(body);
    const before = body.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    const reason = (err as Error).message.replace(/, (?:\.\.\.)?"[\s\S]*is not valid JSON$/, '').replace(/ in JSON at position \d+.*$/s, '');
    throw new NutchError(code, `${path}:${line}:${column}: invalid JSON: ${reason}`, { file: path, line, column });
  }
}
