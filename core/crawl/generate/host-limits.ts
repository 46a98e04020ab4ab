/**
 * generate -hostdb, as Nutch's Generator with a HostDb (NUTCH-2368): per host, generate.max.count.expr
 * gives the maximum URLs per segment and generate.fetch.delay.expr the fetch delay (ms) that goes
 * into each generated CrawlDatum as _variableFetchDelay_. Both are evaluated over the host's
 * HostDatum (core/crawl/hostdb/host-variables.ts); a host missing from the HostDb, or whose
 * evaluation fails, keeps generate.max.count and fetcher.server.delay.
 */
import { NutchError } from '../../errors.js';
import type { Configuration } from '../../config/configuration.js';
import type { Logger } from '../../log.js';
import type { StorageEngine } from '../../storage/interfaces.js';
import type { HostExpression } from '../hostdb/host-expression.js';
import { compileHostExpression, hostVariables } from '../hostdb/host-variables.js';

export interface HostLimitSettings {
  hostDb: string;
  maxCountExpr: HostExpression | null;
  fetchDelayExpr: HostExpression | null;
}

/** Reads and compiles the settings before anything is locked; null without a HostDb. */
export function hostLimitSettings(conf: Configuration, hostDbArg: string | undefined): HostLimitSettings | null {
  const hostDb = hostDbArg ?? (conf.getString('generate.hostdb').trim() || undefined);
  if (hostDb === undefined) return null;
  const compile = (property: string) => {
    const source = conf.getString(property).trim();
    return source ? compileHostExpression(source, property) : null;
  };
  return { hostDb, maxCountExpr: compile('generate.max.count.expr'), fetchDelayExpr: compile('generate.fetch.delay.expr') };
}

export interface HostLimits {
  /** Per host name: the maximum URLs per segment (absent: generate.max.count). */
  maxCount: Map<string, number>;
  /** Per host name: the fetch delay in ms. */
  fetchDelay: Map<string, number>;
}

/** NUTCH_STORAGE_NOT_FOUND unless the HostDb exists: checked before generate locks the CrawlDb. */
export async function requireHostDb(storage: StorageEngine, s: HostLimitSettings): Promise<void> {
  const hostDb = await storage.openHostDb(s.hostDb);
  try {
    if (!(await hostDb.exists())) {
      throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `HostDb ${s.hostDb} does not exist (generate -hostdb); build it with nutch updatehostdb -hostdb ${s.hostDb} -crawldb <crawldb>.`, { file: s.hostDb });
    }
  } finally {
    await hostDb.close();
  }
}

/** Evaluates the expressions for `hosts`, reading the HostDb a batch at a time. */
export async function loadHostLimits(storage: StorageEngine, s: HostLimitSettings, hosts: readonly string[], batchSize: number, log: Logger): Promise<HostLimits> {
  const limits: HostLimits = { maxCount: new Map(), fetchDelay: new Map() };
  const hostDb = await storage.openHostDb(s.hostDb);
  try {
    if (!s.maxCountExpr && !s.fetchDelayExpr) return limits;
    const evaluate = (expr: HostExpression, property: string, host: string, vars: ReturnType<typeof hostVariables>): number | null => {
      try {
        const v = expr.evaluate(vars);
        if (typeof v === 'number' && Number.isFinite(v)) return Math.round(v);
        log.warn(`Generator: ${property} gave ${JSON.stringify(v)} for ${host}, not a number; using the default`, { property, host });
      } catch (err) {
        log.warn(`Generator: ${property} failed for ${host}: ${(err as Error).message}; using the default`, { property, host });
      }
      return null;
    };
    for (let i = 0; i < hosts.length; i += batchSize) {
      const found = await hostDb.getMany(hosts.slice(i, i + batchSize));
      for (const [host, datum] of found) {
        const vars = hostVariables(datum);
        if (s.maxCountExpr) {
          const n = evaluate(s.maxCountExpr, 'generate.max.count.expr', host, vars);
          if (n !== null) {
            limits.maxCount.set(host, n);
            log.info(`Generator: variable maxCount: ${n} for ${host}`);
          }
        }
        if (s.fetchDelayExpr) {
          const ms = evaluate(s.fetchDelayExpr, 'generate.fetch.delay.expr', host, vars);
          if (ms !== null && ms >= 0) {
            limits.fetchDelay.set(host, ms);
            log.info(`Generator: variable fetchDelay: ${ms} ms for ${host}`);
          }
        }
      }
    }
    return limits;
  } finally {
    await hostDb.close();
  }
}
