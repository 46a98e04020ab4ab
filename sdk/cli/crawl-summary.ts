/**
 * The end-of-crawl summary of `nutch crawl`: one line per round with what that round did (pages
 * fetched by status, parsed, URLs it added to the CrawlDb, duplicates, documents indexed), the stage
 * counters summed over the rounds, and the CrawlDb at the end as `readdb -stats` counts it — never a
 * sum of per-round CrawlDb totals. A stopped crawl says so: in which round, during which stage, and
 * which segment the next `nutch crawl` finishes first.
 */
import { basename } from 'node:path';
import type { Counters, ProgressEvent, StageName } from '../../core/crawl/progress.js';
import { ROUND_STAGES } from '../../core/crawl/crawl/crawl.js';
import { ProtocolStatusCode, protocolStatusName } from '../../core/model/protocol-status.js';

interface RoundRecord {
  round: number;
  segments: Set<string>;
  stages: Partial<Record<StageName, Counters>>;
}

/** Collects each round's stage counters and segment from the crawl's progress events. */
export class RoundRecorder {
  private readonly rounds = new Map<number, RoundRecord>();

  readonly onProgress = (e: ProgressEvent): void => {
    if ((e.type !== 'stage-start' && e.type !== 'stage-end') || e.round === undefined) return;
    const r = this.rounds.get(e.round) ?? { round: e.round, segments: new Set<string>(), stages: {} };
    this.rounds.set(e.round, r);
    if (e.type === 'stage-start') {
      const a = e.args ?? {};
      if ((e.stage === 'fetch' || e.stage === 'parse') && typeof a.segment === 'string') r.segments.add(basename(a.segment));
      if (e.stage === 'updatedb' && Array.isArray(a.segments)) for (const s of a.segments) r.segments.add(basename(String(s)));
      return;
    }
    const into = (r.stages[e.stage] ??= {});
    for (const [k, v] of Object.entries(e.counters)) into[k] = (into[k] ?? 0) + v;
  };

  list(): RoundRecord[] {
    return [...this.rounds.values()].sort((a, b) => a.round - b.round);
  }
}

export function formatSummary(s: Counters, ms: number, rounds: RoundRecord[] = [], crawlDb = 'crawl/crawldb'): string {
  const secs = (ms / 1000).toFixed(1);
  const stoppedIn = ROUND_STAGES.find((st) => s[`stopped.in.${st}`]) ?? (s['stopped.in.inject'] ? 'inject' : undefined);
  const stoppedRound = s['stopped.round'];
  const stoppedSegment = stoppedRound !== undefined ? [...rounds.find((r) => r.round === stoppedRound)?.segments ?? []].pop() : undefined;
  const finished = (s.rounds ?? 0) - (s['stopped.by.signal'] && stoppedRound !== undefined ? 1 : 0);
  const lines = s['stopped.by.signal']
    ? [`Crawl stopped by signal${stoppedRound !== undefined ? ` in round ${stoppedRound}` : ''}${stoppedIn ? ` during ${stoppedIn}` : ''}${stoppedSegment ? ` of segment ${stoppedSegment}` : ''}: ${finished} round(s) finished in ${secs} s`]
    : [`Crawl finished: ${s.rounds ?? 0} round(s) in ${secs} s`];
  if (s['stopped.by.file']) lines.push('  stopped by the .STOP file in the crawl directory');
  const resumed = Object.keys(s).some((k) => k.startsWith('resumed.'));
  for (const r of rounds) lines.push(formatRound(r, resumed && r.round === 1));
  const group = (prefix: string) => Object.entries(s).filter(([k, v]) => k.startsWith(prefix) && v !== 0).map(([k, v]) => `${k.slice(prefix.length)}=${v}`);
  for (const stage of ['inject', 'generate', 'fetch', 'parse', 'updatedb', 'invertlinks', 'dedup', 'index', 'clean']) {
    const g = group(`${stage}.`);
    if (!g.length) continue;
    // Each round's clean sends a delete for every gone or duplicate page in the CrawlDb, as Nutch's
    // CleaningJob, so their sum counts most pages several times; the last round's is the distinct count.
    const lastClean = stage === 'clean' ? rounds.filter((r) => r.stages.clean).pop()?.stages.clean?.['Deleted documents'] : undefined;
    if (lastClean !== undefined && rounds.filter((r) => r.stages.clean).length > 1) {
      lines.push(`  ${'clean:'.padEnd(13)}Deleted documents=${lastClean} (gone or duplicate at the end; ${s['clean.Deleted documents'] ?? 0} deletes sent over the rounds)`);
      continue;
    }
    lines.push(`  ${(stage + ':').padEnd(13)}${g.join(' ')}`);
  }
  if (s['crawldb.total'] !== undefined) {
    lines.push(`  crawldb:     TOTAL urls=${s['crawldb.total']} ${group('crawldb.').filter((g) => !g.startsWith('total=')).join(' ')} (as readdb ${crawlDb} -stats)`.trimEnd());
  } else if (s['stopped.by.signal']) {
    lines.push(`  crawldb:     not counted after a stop (nutch readdb ${crawlDb} -stats counts it)`);
  }
  const times = group('time.').map((t) => t.replace('.ms=', '=') + 'ms');
  if (times.length) lines.push(`  time:        ${times.join(' ')}`);
  // the stages the next crawl resumes (core/crawl/crawl/segment-state.ts); a later one starts afresh
  if (stoppedSegment && stoppedIn && ['fetch', 'parse', 'updatedb', 'invertlinks', 'dedup', 'index', 'clean'].includes(stoppedIn)) {
    lines.push(`Run the same nutch crawl again to finish segment ${stoppedSegment} before a new one is generated.`);
  }
  return lines.join('\n') + '\n';
}

/** `round 2 (segment 20240102030405): fetched 6 (success=5 notfound=1), parsed 5, +8 URLs in the CrawlDb, …` */
function formatRound(r: RoundRecord, resumed: boolean): string {
  const f = r.stages.fetch ?? {};
  const parts: string[] = [];
  const statuses = Object.entries(f).filter(([k, v]) => v > 0 && FETCH_STATUS.has(k));
  if (r.stages.fetch) parts.push(`fetched ${statuses.reduce((n, [, v]) => n + v, 0)}${statuses.length ? ` (${statuses.map(([k, v]) => `${k}=${v}`).join(' ')})` : ''}`);
  if (f.resumed_skipped) parts.push(`${f.resumed_skipped} already fetched before the stop`);
  const parse = { ...prefixed(f, 'parse.'), ...r.stages.parse };
  const parsed = parse['ParserStatus.success'] ?? 0;
  const failed = Object.entries(parse).filter(([k]) => k.startsWith('ParserStatus.') && k !== 'ParserStatus.success').reduce((n, [, v]) => n + v, 0);
  if (r.stages.parse || parsed || failed) parts.push(`parsed ${parsed}${failed ? ` (${failed} failed)` : ''}`);
  const u = r.stages.updatedb;
  if (u) parts.push(`+${u.urls_added ?? 0} URLs in the CrawlDb`);
  const dups = r.stages.dedup?.documents_marked_as_duplicate;
  if (dups) parts.push(`${dups} duplicates`);
  const indexed = r.stages.index?.['indexed (add/update)'];
  if (r.stages.index) parts.push(`${indexed ?? 0} indexed`);
  const deleted = r.stages.clean?.['Deleted documents'];
  if (deleted) parts.push(`${deleted} gone or duplicate deleted from the index`);
  const segs = [...r.segments];
  return `  round ${r.round}${segs.length ? ` (segment ${segs.join(', ')}${resumed ? ', resumed' : ''})` : ''}: ${parts.join(', ') || 'nothing done'}`;
}

/** The fetch counters that count pages by protocol status (Nutch's FetcherStatus group: success, notfound, …). */
const FETCH_STATUS = new Set(Object.values(ProtocolStatusCode).map((c) => protocolStatusName(c).toLowerCase()));

function prefixed(c: Counters, prefix: string): Counters {
  return Object.fromEntries(Object.entries(c).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]));
}
