/**
 * mimetype-filter.txt, as Nutch's MimeTypeIndexingFilter reads it: `+` (accept mode: the listed types
 * are rejected) or `-` (reject mode: only the listed types are accepted) — the last such line wins, `+`
 * when there is none; every other line that does not start with a space or `#` is a MIME type prefix
 * (`image` covers `image/png`), matched against the cleaned type with no regex.
 */
import { NutchError } from '../../sdk/plugin.js';

export interface MimeRules {
  acceptMode: boolean;
  prefixes: string[];
}

export function parseMimeRules(text: string, origin: string): MimeRules {
  let acceptMode = true;
  const prefixes: string[] = [];
  text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/).forEach((line, i) => {
    if (line === '' || line[0] === ' ' || line[0] === '\t' || line[0] === '#') return;
    if (line[0] === '+' || line[0] === '-') {
      if (line.trim().length > 1) throw new NutchError('NUTCH_RULE_FILE_INVALID', `${origin}:${i + 1}: a mode line is '+' or '-' alone, got ${JSON.stringify(line)}`, { file: origin, line: i + 1 });
      acceptMode = line[0] === '+';
      return;
    }
    prefixes.push(line.trim().toLowerCase());
  });
  return { acceptMode, prefixes };
}

/** Whether a document of this (cleaned, lower-case) MIME type is indexed. */
export function mimeAccepted(rules: MimeRules, mime: string): boolean {
  const listed = rules.prefixes.some((p) => mime.startsWith(p));
  return rules.acceptMode ? !listed : listed;
}
