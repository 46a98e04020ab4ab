/** Reads a JSON file, turning a syntax error into one that names the file, line and column. */
import { readFileSync } from 'node:fs';
import { NutchError, type ErrorCode } from '../errors.js';

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
    // the offset comes from our own scan; V8's wording (minus its echo of the whole text) is the reason.
    const offset = jsonErrorOffset(body);
    const before = body.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    const reason = (err as Error).message.replace(/, (?:\.\.\.)?"[\s\S]*is not valid JSON$/, '').replace(/ in JSON at position \d+.*$/s, '');
    throw new NutchError(code, `${path}:${line}:${column}: invalid JSON: ${reason}`, { file: path, line, column });
  }
}

/** Offset of the first syntax error in `s` (s.length when the input ends early). */
export function jsonErrorOffset(s: string): number {
  let i = 0;
  const ws = () => {
    while (i < s.length && ' \t\n\r'.includes(s[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (s[i] !== ch) fail();
      i++;
    }
  };
  const string = () => {
    if (s[i] !== '"') fail();
    i++;
    while (i < s.length && s[i] !== '"') {
      if (s.charCodeAt(i) < 0x20) fail();
      if (s[i] === '\\') {
        i++;
        if (s[i] === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(s[i + k] ?? '')) (i += k), fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(s[i] ?? 'x')) fail();
      }
      i++;
    }
    if (i >= s.length) fail();
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(s.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = s[i];
    if (c === '{') {
      i++;
      ws();
      if (s[i] === '}') return void i++;
      for (;;) {
        ws();
        string();
        ws();
        if (s[i] !== ':') fail();
        i++;
        value();
        ws();
        if (s[i] === ',') i++;
        else if (s[i] === '}') return void i++;
        else fail();
      }
    } else if (c === '[') {
      i++;
      ws();
      if (s[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (s[i] === ',') i++;
        else if (s[i] === ']') return void i++;
        else fail();
      }
    } else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else number();
  };
  try {
    value();
    ws();
    if (i < s.length) fail();
  } catch (pos) {
    if (typeof pos === 'number') return Math.min(pos, s.length);
    throw pos;
  }
  return s.length;
}
