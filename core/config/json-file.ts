/** Reads a JSON file, turning a syntax error into one that names the file, line and column. */
import { readFileSync } from 'node:fs';
import { NutchError, type ErrorCode } from '../errors.js';

export function readJsonFile(path: string, code: ErrorCode = 'NUTCH_CONFIG_INVALID_JSON'): unknown {
  const text = readFileSync(path, 'utf8');
  return parseJsonText(text, path, code);
}

export function parseJsonText(text: string, path: string, code: ErrorCode = 'NUTCH_CONFIG_INVALID_JSON'): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    const msg = (err as Error).message;
    const pos = /position (\d+)/.exec(msg);
    let where = '';
    if (pos) {
      const offset = Number(pos[1]);
      const before = text.slice(0, offset);
      const line = before.split('\n').length;
      const column = offset - before.lastIndexOf('\n');
      where = `:${line}:${column}`;
    }
    throw new NutchError(code, `${path}${where}: invalid JSON: ${msg}`, { file: path });
  }
}
