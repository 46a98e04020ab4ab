/**
 * Translates a java.util.regex.Matcher replacement string into a JavaScript one, with Java's rules:
 * `\x` is the literal x, `$n` takes as many digits as still name an existing group, `${name}` is a
 * named group; a literal `$` becomes `$$`. Group references are emitted as two-digit `$nn`, so a
 * literal digit that follows can never be read as part of the number. `jsGroups` maps Java's group n
 * to the RegExp's (index n - 1): the translator adds groups for possessive quantifiers and atomic groups.
 */
export class JavaReplacementError extends Error {}

export function translateJavaReplacement(replacement: string, jsGroups: readonly number[], groupNames: readonly string[]): string {
  const groupCount = jsGroups.length;
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const ch = replacement[i];
    if (ch === '\\') {
      i++;
      if (i >= replacement.length) throw new JavaReplacementError('character to be escaped is missing (replacement ends with \\)');
      out += replacement[i] === '$' ? '$$' : replacement[i];
    } else if (ch === '$') {
      i++;
      if (i >= replacement.length) throw new JavaReplacementError('illegal group reference: group index is missing after $');
      if (replacement[i] === '{') {
        const end = replacement.indexOf('}', i);
        const name = end < 0 ? '' : replacement.slice(i + 1, end);
        if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new JavaReplacementError('named capturing group reference is malformed');
        if (!groupNames.includes(name)) throw new JavaReplacementError(`no group with name {${name}}`);
        out += `$<${name}>`;
        i = end;
        continue;
      }
      let n = replacement.charCodeAt(i) - 0x30;
      if (n < 0 || n > 9) throw new JavaReplacementError('illegal group reference');
      while (i + 1 < replacement.length) {
        const d = replacement.charCodeAt(i + 1) - 0x30;
        if (d < 0 || d > 9 || n * 10 + d > groupCount) break;
        n = n * 10 + d;
        i++;
      }
      if (n > groupCount) throw new JavaReplacementError(`no group ${n} (the pattern has ${groupCount})`);
      if (n === 0) out += '$&';
      else if (jsGroups[n - 1]! > 99) throw new JavaReplacementError(`group ${n}: at most 99 groups can be referenced`);
      else out += '$' + String(jsGroups[n - 1]).padStart(2, '0');
    } else {
      out += ch;
    }
  }
  return out;
}

/** The names of a RegExp's named capturing groups. */
export function groupNamesOf(re: RegExp): string[] {
  const m = new RegExp(`${re.source}|`, re.flags.replace('g', '')).exec('')!;
  return Object.keys(m.groups ?? {});
}
