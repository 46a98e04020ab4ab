/**
 * Nutch-style option parsing: single-dash long options (`-topN 5`, `-noFilter`), GNU-style ones
 * (`--num-threads 4`), repeated `-D k=v` / `-Dkey=value`. No short-option groups: `-topN` is one option.
 * An unknown option is a usage error that names the nearest known one (suggest.ts). `-h`/`--help` never
 * reach a command: runCli answers them with the command's usage.
 */
import { NutchError } from '../../core/errors.js';
import { extractDefines } from '../../core/config/defines.js';
import { didYouMean } from './suggest.js';

export interface OptionSpec {
  /** Options that take no value. */
  flags?: readonly string[];
  /** Options that take one value. */
  values?: readonly string[];
  /** Options that may repeat and collect values. */
  multi?: readonly string[];
  /** An unknown `-x` is an argument, not a usage error (nutch search's query `-word`). */
  unknownAsPositional?: boolean;
}

export interface ParsedArgs {
  flags: Set<string>;
  values: Map<string, string>;
  multi: Map<string, string[]>;
  positional: string[];
  defines: Record<string, string>;
}

export function parseArgs(argv: readonly string[], spec: OptionSpec, usage: string): ParsedArgs {
  const { defines, rest } = extractDefines(argv);
  const out: ParsedArgs = { flags: new Set(), values: new Map(), multi: new Map(), positional: [], defines };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--') {
      // POSIX end of options: what follows is positional, even when it starts with '-'
      out.positional.push(...rest.slice(i + 1));
      break;
    }
    if (arg.length > 1 && arg.startsWith('-') && !/^-\d/.test(arg)) {
      const [name, inline] = arg.includes('=') && arg.startsWith('--') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
      if (spec.flags?.includes(name)) {
        out.flags.add(name);
        continue;
      }
      if (spec.values?.includes(name) || spec.multi?.includes(name)) {
        const value = inline ?? rest[++i];
        if (value === undefined) throw new NutchError('NUTCH_USAGE', `Option ${name} needs a value.\n${usage}`);
        if (spec.multi?.includes(name)) out.multi.set(name, [...(out.multi.get(name) ?? []), value]);
        else out.values.set(name, value);
        continue;
      }
      if (spec.unknownAsPositional) {
        out.positional.push(arg);
        continue;
      }
      const near = didYouMean(name, [...spec.flags ?? [], ...spec.values ?? [], ...spec.multi ?? [], '-D', '--help']);
      throw new NutchError('NUTCH_USAGE', `Unknown option ${name}.${near ? ` Did you mean ${near}?` : ''}\n${usage}`);
    }
    out.positional.push(arg);
  }
  return out;
}

export function intOption(args: ParsedArgs, name: string, fallback: number, usage: string): number {
  const v = args.values.get(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new NutchError('NUTCH_USAGE', `Option ${name} expects an integer, got ${JSON.stringify(v)}.\n${usage}`);
  return n;
}
