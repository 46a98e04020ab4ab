/** Java regular expressions for rule files: translate once, compile once, report where it failed. */
import { JavaRegexError, translateJavaRegex } from './translate.js';

export { JavaRegexError, translateJavaRegex, type TranslatedRegex, type TranslateOptions } from './translate.js';

/** Compiles a java.util.regex pattern as a JavaScript RegExp with Matcher.find() semantics for test(). */
export function compileJavaRegex(pattern: string): RegExp {
  const t = translateJavaRegex(pattern);
  try {
    return new RegExp(t.source, t.flags);
  } catch (err) {
    throw new JavaRegexError(`cannot be compiled as translated (${(err as Error).message})`, 0);
  }
}
