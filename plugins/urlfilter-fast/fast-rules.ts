/**
 * Nutch's fast-urlfilter.txt format: `Host <name>` and `Domain <name>` lines open a block (`Domain .`
 * holds global rules); inside a block `DenyPath <regex>` is found in the URL path,
 * `DenyPathQuery <regex>` in path + `?` + query; `DenyPath .*` (or `.?`) denies everything without
 * running a regex. `#` starts a comment anywhere on a line; the regex is the first whitespace-free
 * token, as Nutch splits it. Unknown lines and invalid regexes fail the load with file and line.
 */
import { type RuleSource, compileJavaRegex, ruleError } from '../lib-regex-filter/index.js';

export interface FastRule {
  /** 'all' denies every URL of the block. */
  kind: 'path' | 'pathQuery' | 'all';
  regex: RegExp | null;
  line: number;
}

export interface FastRules {
  hostRules: Map<string, FastRule[]>;
  domainRules: Map<string, FastRule[]>;
  count: number;
  /** Rule lines before any Host/Domain line (Nutch ignores them); reported by the caller. */
  orphanLines: number[];
}

const CATCH_ALL = /^\s*DenyPath(?:Query)?\s+\.[*?]\s*$/;

function add(map: Map<string, FastRule[]>, key: string, rule: FastRule): void {
  const list = map.get(key);
  if (list) list.push(rule);
  else map.set(key, [rule]);
}

export function parseFastRules(source: RuleSource): FastRules {
  const rules: FastRules = { hostRules: new Map(), domainRules: new Map(), count: 0, orphanLines: [] };
  let current: string | null = null;
  let isHost = false;
  source.lines.forEach((raw, i) => {
    const lineNo = i + 1;
    let line = raw.trim();
    const hash = line.indexOf('#');
    if (hash !== -1) line = line.slice(0, hash).trim();
    if (line === '') return;
    const tokens = line.split(/\s+/);
    if (tokens[0] === 'Host' || tokens[0] === 'Domain') {
      if (tokens.length < 2) throw ruleError(source, lineNo, `${tokens[0]} needs a name`, raw);
      isHost = tokens[0] === 'Host';
      current = tokens[1].toLowerCase();
      if (current !== '.' && current.endsWith('.')) current = current.slice(0, -1);
      return;
    }
    let rule: FastRule;
    if (CATCH_ALL.test(line)) {
      rule = { kind: 'all', regex: null, line: lineNo };
    } else if (tokens[0] === 'DenyPath' || tokens[0] === 'DenyPathQuery') {
      if (tokens.length < 2) throw ruleError(source, lineNo, `${tokens[0]} needs a regular expression`, raw);
      let regex: RegExp;
      try {
        regex = compileJavaRegex(tokens[1]);
      } catch (err) {
        throw ruleError(source, lineNo, `invalid regular expression: ${(err as Error).message}`, tokens[1]);
      }
      rule = { kind: tokens[0] === 'DenyPath' ? 'path' : 'pathQuery', regex, line: lineNo };
    } else {
      throw ruleError(source, lineNo, 'expected Host <name>, Domain <name>, DenyPath <regex> or DenyPathQuery <regex>', raw);
    }
    if (current === null) {
      rules.orphanLines.push(lineNo);
      return;
    }
    add(isHost ? rules.hostRules : rules.domainRules, current, rule);
    rules.count++;
  });
  return rules;
}
