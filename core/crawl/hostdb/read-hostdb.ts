/**
 * readhostdb (`nutch readhostdb <hostdb> <output> [-dumpHomepages | -dumpHostnames | -expr <expr>]`),
 * as Nutch's ReadHostDb: the HostDb in host order into `<output>/part-00000`, one line per host:
 * `<host>\t<HostDatum>` in Nutch's HostDatum.toString() layout (formatHostDatum), or just the host
 * names, or just the home pages. -expr keeps the hosts for which the expression is true.
 */
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { NutchError } from '../../errors.js';
import { numFailures, numRecords, type HostDatum } from '../../model/host-datum.js';
import type { NutchContext } from '../context.js';
import { count, type Counters, type StageOptions } from '../progress.js';
import { ExpressionEvaluationError } from './host-expression.js';
import { compileHostExpression, hostVariables } from './host-variables.js';

export interface ReadHostDbArgs {
  hostDb: string;
  output: string;
  dumpHomepages?: boolean;
  dumpHostnames?: boolean;
  expr?: string;
}

/** Java's Float.toString for the values a HostDb holds (`0.0`, `1.5`). */
function javaFloat(n: number): string {
  const f = Math.fround(n);
  if (Number.isInteger(f) && Math.abs(f) < 1e7) return f.toFixed(1);
  return String(f);
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** yyyy-MM-dd HH:mm:ss in local time, as Nutch's SimpleDateFormat. */
function formatDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Nutch's HostDatum.toString(): counts, failures, score, last check, home page, then `key:value|||` metadata. */
export function formatHostDatum(d: HostDatum): string {
  const meta = Object.entries(d.metaData).map(([k, v]) => `${k}:${typeof v === 'number' ? javaFloat(v) : v}|||`).join('');
  return [
    d.unfetched, d.fetched, d.gone, d.redirTemp, d.redirPerm, d.notModified, numRecords(d),
    d.dnsFailures, d.connectionFailures, numFailures(d), javaFloat(d.score), formatDate(d.lastCheck), d.homepageUrl, meta,
  ].join('\t');
}

export async function readHostDb(ctx: NutchContext, args: ReadHostDbArgs, opts: StageOptions = {}): Promise<Counters> {
  const log = ctx.log.child({ stage: 'readhostdb' });
  const expr = args.expr !== undefined ? compileHostExpression(args.expr, 'readhostdb -expr') : null;
  const hostDb = await ctx.storage.openHostDb(args.hostDb);
  const counters: Counters = { hosts: 0, written: 0 };
  try {
    if (!(await hostDb.exists())) {
      throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `HostDb ${args.hostDb} does not exist (run nutch updatehostdb -hostdb ${args.hostDb} -crawldb <crawldb> first).`, { file: args.hostDb });
    }
    if (fs.existsSync(args.output)) throw new NutchError('NUTCH_USAGE', `Output directory ${args.output} already exists; remove it or choose another.`, { file: args.output });
    fs.mkdirSync(args.output, { recursive: true });
    const out = fs.createWriteStream(path.join(args.output, 'part-00000'));
    const reported = new Set<string>();
    try {
      for await (const { host, datum } of hostDb.scan()) {
        if (opts.signal?.aborted) { counters.stopped = 1; break; }
        counters.hosts!++;
        if (expr) {
          let keep: unknown;
          try {
            keep = expr.evaluate(hostVariables(datum));
          } catch (err) {
            if (!(err instanceof ExpressionEvaluationError)) throw err;
            count(counters, 'expression_errors');
            // one line per distinct reason, as a missing metadata key fails for every host lacking it
            if (!reported.has(err.message)) log.warn(`readhostdb -expr: ${err.message} for ${host} (hosts failing this way are skipped)`, { host });
            reported.add(err.message);
            continue;
          }
          if (keep !== true) continue;
        }
        let line: string | null;
        if (args.dumpHomepages) line = datum.homepageUrl || null;
        else if (args.dumpHostnames) line = host;
        else line = `${host}\t${formatHostDatum(datum)}`;
        if (line === null) continue;
        counters.written!++;
        if (!out.write(line + '\n')) await once(out, 'drain');
      }
    } finally {
      out.end();
      await once(out, 'finish');
    }
  } finally {
    await hostDb.close();
  }
  return counters;
}
