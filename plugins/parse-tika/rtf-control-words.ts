/**
 * RTF control words and symbols that stand for text, as Tika's RTFParser maps them: paragraph, line,
 * row, page and section breaks are newlines, tabs and table cells are tabs, and the typographic
 * words are their Unicode characters. Also the decoder an `\ansicpgN` names.
 */

/** Control words that are a character of text. */
export const CHARACTER_WORDS: ReadonlyMap<string, string> = new Map([
  ['par', '\n'], ['line', '\n'], ['row', '\n'], ['page', '\n'], ['sect', '\n'],
  ['tab', '\t'], ['cell', '\t'],
  ['emdash', '\u2014'], ['endash', '\u2013'], ['bullet', '\u2022'],
  ['lquote', '\u2018'], ['rquote', '\u2019'], ['ldblquote', '\u201c'], ['rdblquote', '\u201d'],
]);

/** Control symbols (`\~`, `\_`, escaped braces and backslash, `\` + newline) that are a character of text. */
export const CHARACTER_SYMBOLS: ReadonlyMap<string, string> = new Map([
  ['~', '\u00a0'], ['_', '-'], ['\\', '\\'], ['{', '{'], ['}', '}'], ['\n', '\n'], ['\r', '\n'],
]);

/** `\ansicpgN`'s decoder for `\'hh` bytes and plain characters; null for a code page Node does not know. */
export function codePageDecoder(codePage: number | undefined): InstanceType<typeof TextDecoder> | null {
  try {
    return new TextDecoder(`windows-${codePage}`);
  } catch {
    try {
      return new TextDecoder(`cp${codePage}`);
    } catch {
      return null;
    }
  }
}
