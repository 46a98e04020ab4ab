/**
 * updatehostdb (`nutch updatehostdb -hostdb <hostdb> [-tophosts <file>] [-crawldb <crawldb>]
 * [-checkAll] [-checkFailed] [-checkNew] [-checkKnown] [-force] [-filter] [-normalize]`), as Nutch's
 * UpdateHostDb: the HostDb's hosts, plus every host of the CrawlDb with its records counted per
 * CrawlDb status, connection failures, home page and statistics (host-statistics.ts), plus scores
 * from a `host<TAB>score` file; then, with the check options, a DNS check of the eligible hosts.
 *
 * One atomic HostDb session (previous state kept on a crash or a stop), folded a batch at a time:
 * (1) carry the old hosts over (re-keyed by -filter/-normalize; CrawlDb counts reset when the CrawlDb
 * is read, since they are rebuilt from it), (2) add each CrawlDb batch to its hosts, keeping the
 * running statistics inside the session, (3) add the scores, (4) one pass writing the statistics and
 * checking hosts. Memory is bounded by storage.batch.size, never by the number of hosts.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { NutchError } from '../../errors.js';
import { CrawlStatus, type CrawlDatum } from '../../model/crawl-datum.js';
import { createHostDatum, isUnchecked, numFailures, resetStatistics, type HostDatum } from '../../model/host-datum.js';
import type { HostDbUpdate, HostRecord } from '../../storage/interfaces.js';
import { resolveConfFile } from '../../config/load-configuration.js';
import type { NutchContext } from '../context.js';
import { count, type Counters, type StageOptions } from '../progress.js';
import { StageRun } from '../stage-run.js';
import type { Configuration } from '../../config/configuration.js';
import { homepageOf, hostKeyer, hostOfUrl, type HostKeyer } from './host-keys.js';
import { dnsResolver, hostsFileResolver, type HostResolver } from './host-resolver.js';
import { addRecord, emptyAggregate, mergeAggregates, writeStatistics, type HostAggregate } from './host-statistics.js';

export interface UpdateHostDbArgs {
  hostDb: string;
  crawlDb?: string;
  /** Nutch's -tophosts: a text file of `host<TAB>score` lines (e.g. from the WebGraph's NodeDumper). */
  topHosts?: string;
  checkFailed?: boolean;
  checkNew?: boolean;
  checkKnown?: boolean;
  /** Check hosts whatever their last check (Nutch's -force: not the lock). */
  force?: boolean;
  filter?: boolean;
  normalize?: boolean;
}

/** The running statistics of a host while the session folds the CrawlDb; removed before commit. */
const AGGREGATE_KEY = '\u0000hostdb.aggregate';

interface Settings {
  keyer: HostKeyer;
  checkNew: boolean;
  checkKnown: boolean;
  checkFailed: boolean;
  force: boolean;
  recheckMs: number;
  purgeThreshold: number;
  threads: number;
  numericFields: string[];
  stringFields: string[];
  percentiles: number[];
  batchSize: number;
  now: number;
}

export async function updateHostDb(ctx: NutchContext, args: UpdateHostDbArgs, opts: StageOptions = {}): Promise<Counters> {
  const run = new StageRun(ctx, 'updatehostdb', opts);
  const s = await settings(ctx, args);
  const resolver = hostResolver(ctx.conf);
  run.start({ ...args });
  run.log.info(`UpdateHostDb: hostdb: ${args.hostDb}${args.crawlDb ? `, crawldb: ${args.crawlDb}` : ''}`);

  const hostDb = await ctx.storage.openHostDb(args.hostDb);
  const crawlDb = args.crawlDb !== undefined ? await ctx.storage.openCrawlDb(args.crawlDb) : null;
  try {
    await checkInputs(args, hostDb, crawlDb);
    await run.inSession(() => hostDb.beginUpdate(), async (up) => {
      await carryOver(up, s, crawlDb !== null, run.counters);
      if (crawlDb) {
        for await (const batch of batches(crawlDb.scan({ batchSize: s.batchSize }), s.batchSize)) {
          run.checkAborted();
          await addCrawlDbBatch(up, batch, s, run.counters);
        }
      }
      if (args.topHosts !== undefined) await addScores(up, args.topHosts, s, run.counters);
      run.checkAborted();
      await finish(up, s, resolver, run.counters, run.log);
      run.checkAborted();
    }, 'UpdateHostDb: stopped; the HostDb was left as it was.');
  } finally {
    await crawlDb?.close();
    await hostDb.close();
  }
  return run.finish((ms) => `UpdateHostDb: finished, ${run.counters.total_hosts ?? 0} hosts, elapsed ${ms} ms`);
}

/** The options, each defaulting to its hostdb.* property. */
async function settings(ctx: NutchContext, args: UpdateHostDbArgs): Promise<Settings> {
  const { conf } = ctx;
  const flag = (value: boolean | undefined, property: string) => value ?? conf.getBoolean(property);
  const percentiles = conf.getStrings('hostdb.percentiles').map((p) => {
    const n = Number(p);
    if (!Number.isFinite(n) || n < 0 || n > 100) throw new NutchError('NUTCH_CONFIG_INVALID_VALUE', `hostdb.percentiles: ${JSON.stringify(p)} is not a percentile between 0 and 100.`, { property: 'hostdb.percentiles', value: p });
    return n;
  });
  return {
    keyer: await hostKeyer(ctx, { filter: flag(args.filter, 'hostdb.url.filter'), normalize: flag(args.normalize, 'hostdb.url.normalize') }),
    checkNew: flag(args.checkNew, 'hostdb.check.new'),
    checkKnown: flag(args.checkKnown, 'hostdb.check.known'),
    checkFailed: flag(args.checkFailed, 'hostdb.check.failed'),
    force: flag(args.force, 'hostdb.force.check'),
    recheckMs: conf.getInt('hostdb.recheck.interval') * 1000,
    purgeThreshold: conf.getInt('hostdb.purge.failed.hosts.threshold'),
    threads: Math.max(1, conf.getInt('hostdb.num.resolvers.threads')),
    numericFields: conf.getStrings('hostdb.numeric.fields'),
    stringFields: conf.getStrings('hostdb.string.fields'),
    percentiles,
    batchSize: Math.max(1, conf.getInt('storage.batch.size')),
    now: Date.now(),
  };
}

/** hostdb.resolver.hosts.file (offline crawls and tests) or DNS. */
function hostResolver(conf: Configuration): HostResolver {
  const hostsFile = conf.getString('hostdb.resolver.hosts.file').trim();
  return hostsFile ? hostsFileResolver(resolveConfFile(conf, hostsFile, 'hostdb.resolver.hosts.file')) : dnsResolver();
}

/** Each named input exists, and there is something to update: a CrawlDb, top hosts or an existing HostDb. */
async function checkInputs(args: UpdateHostDbArgs, hostDb: { exists(): Promise<boolean> }, crawlDb: { exists(): Promise<boolean> } | null): Promise<void> {
  if (crawlDb && !(await crawlDb.exists())) {
    throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `CrawlDb ${args.crawlDb} does not exist (updatehostdb -crawldb). Run "nutch inject" first.`, { file: args.crawlDb });
  }
  if (args.topHosts !== undefined && !fs.existsSync(args.topHosts)) {
    throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `Top hosts file ${args.topHosts} does not exist (updatehostdb -tophosts).`, { file: args.topHosts });
  }
  if (!crawlDb && args.topHosts === undefined && !(await hostDb.exists())) {
    throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `HostDb ${args.hostDb} does not exist: give -crawldb <crawldb> to build it from a CrawlDb.`, { file: args.hostDb });
  }
}

async function* batches<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length >= size) { yield batch; batch = []; }
  }
  if (batch.length) yield batch;
}

/** Step 1: old hosts, re-keyed, with CrawlDb-derived counts reset when the CrawlDb is read again. */
async function carryOver(up: HostDbUpdate, s: Settings, readingCrawlDb: boolean, counters: Counters): Promise<void> {
  for await (const page of batches(up.scan({ batchSize: s.batchSize }), s.batchSize)) {
    const puts: HostRecord[] = [];
    const deletes: string[] = [];
    for (const { host, datum } of page) {
      const key = s.keyer(host);
      if (key === null) {
        deletes.push(host);
        count(counters, 'filtered_records');
        continue;
      }
      // connection failures are recounted from the CrawlDb's retries too, so they do not grow every update
      const kept = readingCrawlDb ? { ...resetStatistics(datum), connectionFailures: 0 } : datum;
      if (key !== host) deletes.push(host);
      if (readingCrawlDb || key !== host) puts.push({ host: key, datum: kept });
    }
    if (deletes.length) await up.delete(deletes);
    if (puts.length) await up.put(puts);
  }
}

interface HostPart {
  datum: HostDatum;
  aggregate: HostAggregate;
}

const STATUS_FIELD: Partial<Record<number, 'unfetched' | 'fetched' | 'gone' | 'redirTemp' | 'redirPerm' | 'notModified'>> = {
  [CrawlStatus.STATUS_DB_UNFETCHED]: 'unfetched',
  [CrawlStatus.STATUS_DB_FETCHED]: 'fetched',
  [CrawlStatus.STATUS_DB_GONE]: 'gone',
  [CrawlStatus.STATUS_DB_REDIR_TEMP]: 'redirTemp',
  [CrawlStatus.STATUS_DB_REDIR_PERM]: 'redirPerm',
  [CrawlStatus.STATUS_DB_NOTMODIFIED]: 'notModified',
};

/** Step 2: one CrawlDb batch folded into its hosts. */
async function addCrawlDbBatch(up: HostDbUpdate, batch: { url: string; value: CrawlDatum }[], s: Settings, counters: Counters): Promise<void> {
  const parts = new Map<string, HostPart>();
  for (const { url, value } of batch) {
    const raw = hostOfUrl(url);
    if (raw === null) { count(counters, 'malformed_url'); continue; }
    const host = s.keyer(raw);
    if (host === null) { count(counters, 'filtered_records'); continue; }
    let part = parts.get(host);
    if (!part) parts.set(host, (part = { datum: createHostDatum(), aggregate: emptyAggregate() }));
    const field = STATUS_FIELD[value.status];
    if (field) part.datum[field]++;
    if (value.retries !== 0) part.datum.connectionFailures++;
    const homepage = homepageOf(url, host, value);
    if (homepage) part.datum.homepageUrl = homepage;
    if (value.status === CrawlStatus.STATUS_DB_FETCHED || value.status === CrawlStatus.STATUS_DB_NOTMODIFIED) {
      addRecord(part.aggregate, value, s.numericFields, s.stringFields);
    }
  }
  const existing = await up.getMany([...parts.keys()]);
  const puts: HostRecord[] = [];
  for (const [host, part] of parts) {
    const d = existing.get(host) ?? createHostDatum();
    const p = part.datum;
    const merged: HostDatum = {
      ...d,
      unfetched: d.unfetched + p.unfetched, fetched: d.fetched + p.fetched, gone: d.gone + p.gone,
      redirTemp: d.redirTemp + p.redirTemp, redirPerm: d.redirPerm + p.redirPerm, notModified: d.notModified + p.notModified,
      connectionFailures: d.connectionFailures + p.connectionFailures,
      homepageUrl: p.homepageUrl || d.homepageUrl,
      metaData: { ...d.metaData },
    };
    const before = typeof d.metaData[AGGREGATE_KEY] === 'string' ? (JSON.parse(d.metaData[AGGREGATE_KEY] as string) as HostAggregate) : emptyAggregate();
    merged.metaData[AGGREGATE_KEY] = JSON.stringify(mergeAggregates(before, part.aggregate));
    puts.push({ host, datum: merged });
  }
  await up.put(puts);
}

/** Step 3: `host<TAB>score` lines; a positive score replaces the host's, as Nutch's WebGraph scores. */
async function addScores(up: HostDbUpdate, file: string, s: Settings, counters: Counters): Promise<void> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let pending = new Map<string, number>();
  const flush = async () => {
    const existing = await up.getMany([...pending.keys()]);
    await up.put([...pending].map(([host, score]) => ({ host, datum: { ...(existing.get(host) ?? createHostDatum()), score } })));
    pending = new Map();
  };
  let lineNo = 0;
  for await (const line of lines) {
    lineNo++;
    if (!line.trim() || line.startsWith('#')) continue;
    const [rawHost, rawScore] = line.split('\t');
    const score = Number(rawScore);
    if (!rawHost || rawScore === undefined || !Number.isFinite(score)) {
      count(counters, 'malformed_score_lines');
      throw new NutchError('NUTCH_USAGE', `${file}:${lineNo}: expected "host<TAB>score", got ${JSON.stringify(line)}.`, { file, line: lineNo });
    }
    const host = s.keyer(rawHost.trim().toLowerCase());
    if (host === null) { count(counters, 'filtered_records'); continue; }
    if (score > 0) pending.set(host, score);
    if (pending.size >= s.batchSize) await flush();
  }
  if (pending.size) await flush();
}

/** Step 4: statistics written, hosts checked (Nutch's reducer and ResolverThread), a page at a time. */
async function finish(up: HostDbUpdate, s: Settings, resolver: HostResolver, counters: Counters, log: NutchContext['log']): Promise<void> {
  const checkAny = s.checkNew || s.checkKnown || s.checkFailed;
  for await (const page of batches(up.scan({ batchSize: s.batchSize }), s.batchSize)) {
    const puts: HostRecord[] = [];
    const deletes: string[] = [];
    const toCheck: HostRecord[] = [];
    for (const { host, datum } of page) {
      count(counters, 'total_hosts');
      const d: HostDatum = { ...datum, metaData: { ...datum.metaData } };
      const raw = d.metaData[AGGREGATE_KEY];
      delete d.metaData[AGGREGATE_KEY];
      if (typeof raw === 'string') writeStatistics(d.metaData, JSON.parse(raw) as HostAggregate, s.percentiles);
      if (shouldCheck(d, s)) toCheck.push({ host, datum: d });
      else {
        if (checkAny) count(counters, 'skipped_not_eligible');
        if (typeof raw === 'string') puts.push({ host, datum: d });
      }
    }
    await pool(toCheck, s.threads, async (rec) => {
      const kept = await check(rec, s, resolver, counters, log);
      if (kept) puts.push(kept);
      else deletes.push(rec.host);
    });
    if (deletes.length) await up.delete(deletes);
    if (puts.length) await up.put(puts);
  }
}

/** Nutch's shouldCheck(); eligibility waits hostdb.recheck.interval × (DNS failures + 1) since the last check. */
function shouldCheck(d: HostDatum, s: Settings): boolean {
  const eligible = () => s.force || d.lastCheck + s.recheckMs * (d.dnsFailures + 1) <= s.now;
  if (s.checkNew && isUnchecked(d)) return true;
  if (s.checkKnown && !isUnchecked(d) && d.dnsFailures === 0) return eligible();
  if (s.checkFailed && d.dnsFailures > 0) return eligible();
  return false;
}

async function check(rec: HostRecord, s: Settings, resolver: HostResolver, counters: Counters, log: NutchContext['log']): Promise<HostRecord | null> {
  const d = rec.datum;
  const { result, reason } = await resolver.resolve(rec.host);
  count(counters, 'checked_hosts');
  if (result === 'error') {
    count(counters, 'resolver_errors');
    log.warn(`UpdateHostDb: ${rec.host}: lookup failed (${reason}); host kept unchanged`, { host: rec.host });
    return rec;
  }
  const fresh = isUnchecked(d);
  const out: HostDatum = { ...d, lastCheck: s.now };
  if (result === 'known') {
    count(counters, fresh ? 'new_known_host' : d.dnsFailures > 0 ? 'rediscovered_host' : 'existing_known_host');
    out.dnsFailures = 0;
    return { host: rec.host, datum: out };
  }
  out.dnsFailures = fresh ? 1 : d.dnsFailures + 1;
  count(counters, `${numFailures(out)}_times_failed`);
  if (fresh) {
    count(counters, 'new_unknown_host');
    return { host: rec.host, datum: out };
  }
  // purged once it failed more often than the threshold (-1: never), as the property describes
  if (s.purgeThreshold >= 0 && out.dnsFailures > s.purgeThreshold) {
    count(counters, 'purged_unknown_host');
    log.info(`UpdateHostDb: ${rec.host}: purged_unknown_host after ${out.dnsFailures} DNS failures`);
    return null;
  }
  count(counters, 'existing_unknown_host');
  return { host: rec.host, datum: out };
}

/** Runs fn over items with at most `threads` at once (hostdb.num.resolvers.threads). */
async function pool<T>(items: readonly T[], threads: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(threads, items.length) }, worker));
}
