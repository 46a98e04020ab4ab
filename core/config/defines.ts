/** Nutch's `-D key=value` / `-Dkey=value` options, as Hadoop's GenericOptionsParser accepts them. */
import { NutchError } from '../errors.js';

export interface SplitDefines {
  defines: Record<string, string>;
  rest: string[];
}

export function extractDefines(argv: readonly string[]): SplitDefines {
  const defines: Record<string, string> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    let kv: string | undefined;
    if (arg === '--') {
      // everything after -- is an argument, even `-Dsomething` or `-word` (a search query)
      rest.push(...argv.slice(i));
      break;
    }
    if (arg === '-D') {
      kv = argv[++i];
      if (kv === undefined) throw new NutchError('NUTCH_CONFIG_BAD_DEFINE', '-D needs key=value after it, e.g. -D http.agent.name=mybot');
    } else if (arg.startsWith('-D') && arg.length > 2) {
      kv = arg.slice(2);
    } else {
      rest.push(arg);
      continue;
    }
    const eq = kv.indexOf('=');
    if (eq <= 0) throw new NutchError('NUTCH_CONFIG_BAD_DEFINE', `-D ${kv}: expected key=value, e.g. -D http.agent.name=mybot`);
    defines[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  return { defines, rest };
}
