/**
 * Java's lines in JavaScript: `.`, `^`, `$`, `\Z`, `\A`, `\z` and `\R` as java.util.regex reads them —
 * every Java line terminator (\n \r \r\n \u0085 \u2028 \u2029), or only \n under UNIX_LINES (?d) —
 * written with lookarounds where JavaScript's own anchors know only \n and \r.
 */
import { LINE_TERMINATORS, classBody, type Ranges } from './char-set.js';
import type { Flags } from './pattern-cursor.js';

function terminators(flags: Flags): Ranges {
  return flags.d ? [[0x0a, 0x0a]] : LINE_TERMINATORS;
}

/** `.`: any code point but a line terminator; any at all under DOTALL (?s). */
export function dotJs(flags: Flags): string {
  if (flags.s) return '[\\s\\S]';
  return `[^${classBody(terminators(flags))}]`;
}

/** `^`: the input's start, or under MULTILINE (?m) after a terminator that does not end the input. */
export function caretJs(flags: Flags): string {
  if (!flags.m) return '^';
  if (flags.d) return '(?:^|(?<=\\n)(?!$))';
  return '(?:^|(?<=[\\n\\x85\\u2028\\u2029]|\\r(?!\\n))(?!$))';
}

/** `$`: the input's end or before a final terminator; under MULTILINE (?m) before any terminator. */
export function dollarJs(flags: Flags): string {
  if (flags.d) return flags.m ? '(?=\\n|$)' : '(?=\\n?$)';
  if (flags.m) return '(?=[\\n\\r\\x85\\u2028\\u2029]|$)(?<!\\r(?=\\n))';
  return '(?=(?:\\r\\n|[\\n\\r\\x85\\u2028\\u2029])?$)';
}

/** `\Z`: the input's end, or before a final terminator (whatever MULTILINE says). */
export function endBeforeTerminatorJs(flags: Flags): string {
  return flags.d ? '(?=\\n?(?![\\s\\S]))' : '(?=(?:\\r\\n|[\\n\\r\\x85\\u2028\\u2029])?(?![\\s\\S]))';
}

/** `\A` and `\z`: the input's very start and end, whatever MULTILINE says. */
export const INPUT_START_JS = '(?<![\\s\\S])';
export const INPUT_END_JS = '(?![\\s\\S])';

/** `\R`: any linebreak sequence. */
export const LINEBREAK_JS = '(?:\\r\\n|[\\n\\x0b\\f\\r\\x85\\u2028\\u2029])';
