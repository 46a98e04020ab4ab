/**
 * Kill -9 of every stage (issue 18): a chain of single-stage commands — inject, generate, fetch, parse,
 * updatedb, invertlinks, dedup, index, clean, as bin/crawl runs them for one round — followed by a
 * `nutch crawl -i` round, each run twice over the local test web, in two crawl directories:
 *
 * - the reference directory runs each command once, uninterrupted; how long it took is the kill
 *   window, so the window follows the machine's speed and its load at that moment;
 * - the trial directory runs the same command as a real child process and SIGKILLs it at a seeded
 *   uniform point of that window, counted from the child's `<stage>: started` line (after start-up, so
 *   kills land in the stage's work, not in Node's module loading); then every store is opened and read
 *   (kill9-snapshot.ts) and must be the state before the command or after it (the CrawlDb and LinkDb old
 *   or new, no segment half-published, segment parts holding a subset of the reference's records, each
 *   once), the command is run again and must complete, and the directory must then equal the
 *   reference's: CrawlDb, LinkDb, segment parts and index. Pages stored by fetch before the kill must not
 *   be requested again.
 *
 * Two re-runs are not made, as Nutch's operators would not make them: updatedb after a kill that
 * landed once its CrawlDb commit was done (merging the segment again would add its scores twice), and
 * a crawl that had ended its round (another round would crawl further). A fetch killed after it wrote
 * `_SUCCESS` is re-run and must be refused with NUTCH_SEGMENT_ALREADY_FETCHED, a parse killed after its
 * `_SUCCESS` markers must be skipped as already parsed (exit 1); a generate killed after
 * it published its segment leaves, re-run, one extra complete segment (DESIGN §5: at worst an extra
 * segment), which the chain leaves alone as bin/crawl does.
 *
 * The seed chooses every kill point; a failure names it and the stage. tests/crawl/kill9-stages.test.ts
 * runs one chain per engine; bench/kill9.bench.ts runs many.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWeb, TestWebOptions } from '../web/test-web.js';
import { prng } from '../web/web-model.js';
import { within } from '../helpers/within.js';
import { runChild, runInProcess, WAIT_MS } from './kill9-command.js';
import { linesMissingFrom, snapshotCrawl, type CrawlSnapshot, type SegmentSnapshot } from './kill9-snapshot.js';

/** The harness's bounds, for the callers that wait on what a chain does (PostgreSQL sessions of a killed child). */
export { WAIT_MS } from './kill9-command.js';

export const KILL_STAGES = ['inject', 'generate', 'fetch', 'parse', 'updatedb', 'invertlinks', 'dedup', 'index', 'clean', 'crawl'] as const;
export type KillStage = (typeof KILL_STAGES)[number];

/** A page served identically on every host, so dedup has duplicates to mark (and index to leave out). */
const DUPLICATE = '<!DOCTYPE html>\n<html><head><title>Duplicate page</title></head><body><p>The same page on every host.</p></body></html>\n';

/** Test web options for a chain: `hosts` hosts of `pagesPerHost` pages, the duplicate page on each. */
export function chainWebOptions(hosts: number, pagesPerHost: number, seed: number): TestWebOptions {
  return { hosts, pagesPerHost, linksPerPage: 3, latencyMs: 10, seed, files: { '/dup.html': { contentType: 'text/html', body: DUPLICATE } } };
}

/**
 * The seeds of round 1: each host's home page, the first half of its pages, its duplicate page and one
 * missing page (a 404: db_gone, for clean). Links lead to the other pages, which the crawl round fetches.
 */
function chainSeeds(web: TestWeb): string[] {
  const half = Math.ceil(web.model.opts.pagesPerHost / 2);
  return web.hosts.flatMap((_, h) => [
    ...Array.from({ length: half }, (_, p) => web.url(h, web.model.pagePath(p))),
    web.url(h, '/dup.html'),
    web.url(h, '/missing.html'),
  ]);
}

export interface ChainOptions {
  web: TestWeb;
  /** Chooses every kill point (uniform within each window). */
  seed: number;
  /** storage.url for a crawl directory ('' = the embedded engine). */
  storageUrl(cwd: string): string;
  /**
   * How the reference runs each command: 'child' measures the window as the trial sees it (from the
   * `started` line to exit); 'in-process' (runNutch) saves the start-up of ten child processes, and
   * measures a warm run, so its window is shorter and kills land early in the stage's work. The
   * re-run after each kill runs the same way (in-process: what it finds was left by a dead process
   * all the same — a stale lock, claims of a gone worker, sessions the server ended — and it saves ten
   * more start-ups); the killed command is always a child.
   */
  reference: 'child' | 'in-process';
  /** Properties added to each directory's nutch-site.json (a test's smaller plugin set, say). */
  conf?: Record<string, string | number | boolean>;
  /** Only these stages are killed (the others run uninterrupted in both directories); default all. */
  stages?: readonly KillStage[];
  onTrial?(t: StageTrial): void;
  /** Each step as it happens (reference run, kill, re-run), for a bench's or a replay's log. */
  log?(line: string): void;
  /** What to add to the message of a step given up on (WAIT_MS): the database's sessions, say. */
  diagnose?(): Promise<string>;
  /**
   * Waits, bounded, until what a killed child left on a server is gone before its stores are read
   * (PostgreSQL: its sessions, which end only when their backends notice the closed socket).
   */
  afterKill?(pid: number): Promise<void>;
  /**
   * Checks, bounded, that a step run in this process (a command, a store read) left nothing open on a
   * server once its context closed (PostgreSQL: no session of this process) — a pool never ended or a
   * client never released fails here, naming the step, instead of holding a later close forever.
   */
  afterInProcess?(when: string): Promise<void>;
}

export interface StageTrial {
  stage: KillStage;
  windowMs: number;
  killAfterMs: number;
  /** What the kill left: the state before the command, the state after it, or part of the way. */
  left: 'old' | 'new' | 'partial' | 'exited';
  /** Whether the command was run again (see the header for the two cases that are not). */
  reran: boolean;
  /** Records the command had stored before the kill, where it stores as it goes (fetch, parse, crawl). */
  storedBeforeKill?: number;
}

const CONF = {
  'http.agent.name': 'kill9',
  'fetcher.server.delay': 0,
  // small batches: many commits, so a kill lands between them
  'storage.batch.size': 2,
  // a killed fetch's partitions are claimed again after 10 s, not a minute. Not shorter: on PostgreSQL a
  // batch's transaction that stands idle past the lease on a loaded machine is ended by the server and its
  // URLs fetched again (a worker's own expired lease no longer costs an attempt: docs/scale-out.md)
  'fetcher.partition.lease': 10,
  'parser.worker.threads': 1,
  'linkdb.ignore.internal.links': false,
};

interface ChainDir {
  cwd: string;
  storageUrl: string;
  /** The round's segment (the newest after generate), and the crawl round's. */
  segment?: string;
  /** Segments a re-run generate added beside the round's (left alone, never compared). */
  extra: Set<string>;
  /** Every segment name seen so far. */
  known: Set<string>;
  /** ChainOptions.diagnose, for the message of a step given up on. */
  diagnose(): Promise<string>;
  afterKill(pid: number): Promise<void>;
  afterInProcess(when: string): Promise<void>;
  /** Whether re-runs run in the test's own process (ChainOptions.reference). */
  inProcess: boolean;
}

function makeDir(opts: ChainOptions, seeds: string[]): ChainDir {
  const cwd = mkdtempSync(join(tmpdir(), 'nutch-kill9-stages-'));
  const storageUrl = opts.storageUrl(cwd);
  writeFileSync(join(cwd, 'nutch-site.json'), JSON.stringify({ ...CONF, ...opts.conf, ...(storageUrl ? { 'storage.url': storageUrl } : {}) }));
  writeFileSync(join(cwd, 'seeds.txt'), seeds.join('\n') + '\n');
  return { cwd, storageUrl, extra: new Set(), known: new Set(), diagnose: opts.diagnose ?? (async () => ''), afterKill: opts.afterKill ?? (async () => {}), afterInProcess: opts.afterInProcess ?? (async () => {}), inProcess: opts.reference === 'in-process' };
}

function stageArgv(stage: KillStage, dir: ChainDir): string[] {
  const seg = () => {
    if (!dir.segment) throw new Error(`${stage} needs the round's segment, and generate made none`);
    return dir.segment;
  };
  const argv = ((): string[] => {
    switch (stage) {
      case 'inject': return ['inject', 'crawl/crawldb', 'seeds.txt'];
      case 'generate': return ['generate', 'crawl/crawldb', 'crawl/segments', '-numFetchers', '2'];
      case 'fetch': return ['fetch', seg(), '-threads', '4'];
      case 'parse': return ['parse', seg()];
      case 'updatedb': return ['updatedb', 'crawl/crawldb', seg()];
      case 'invertlinks': return ['invertlinks', 'crawl/linkdb', seg()];
      case 'dedup': return ['dedup', 'crawl/crawldb'];
      case 'index': return ['index', 'crawl/crawldb', '-linkdb', 'crawl/linkdb', seg()];
      case 'clean': return ['clean', 'crawl/crawldb'];
      case 'crawl': return ['crawl', '-i', '-s', 'seeds.txt', 'crawl', '1'];
    }
  })();
  return dir.storageUrl ? [...argv, '-D', `storage.url=${dir.storageUrl}`] : argv;
}

/** Runs a command uninterrupted in the reference directory; returns its window. */
async function runReference(mode: ChainOptions['reference'], stage: KillStage, dir: ChainDir): Promise<number> {
  const argv = stageArgv(stage, dir);
  if (mode === 'child') {
    const { result, workMs } = await runChild(argv, dir);
    assert.equal(result.code, 0, `reference ${argv.join(' ')}: ${result.stderr.slice(-2000)}`);
    return workMs;
  }
  const { result, workMs } = await runInProcess(argv, dir);
  assert.equal(result.code, 0, `reference ${argv.join(' ')}: ${result.stderr.slice(-2000)}`);
  return workMs;
}

/** Every store of a directory read (kill9-snapshot.ts), bounded: a read that cannot end fails naming the directory. */
async function snapshot(dir: ChainDir, when: string): Promise<CrawlSnapshot> {
  const what = `the stores of ${dir.cwd} to be read ${when}`;
  const snap = await within(WAIT_MS.snapshot, what, snapshotCrawl(dir.cwd, dir.storageUrl), () => dir.diagnose());
  await dir.afterInProcess(what);
  return snap;
}

function newestSegment(snap: CrawlSnapshot): string | undefined {
  const segs = snap.segments.map((s) => s.name).sort();
  return segs.length ? join('crawl', 'segments', segs[segs.length - 1]!) : undefined;
}

/** A snapshot's segments without the extra ones, in name order (names differ between directories). */
function comparable(snap: CrawlSnapshot, dir: ChainDir): Omit<CrawlSnapshot, 'segments'> & { segments: SegmentSnapshot['parts'][] } {
  const segments = snap.segments.filter((s) => !dir.extra.has(s.name)).sort((a, b) => a.name.localeCompare(b.name)).map((s) => s.parts);
  return { ...snap, segments };
}

type Comparable = ReturnType<typeof comparable>;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Runs one chain; resolves with a trial per stage killed, or throws naming the seed, stage and kill point. */
export async function runKillChain(opts: ChainOptions): Promise<StageTrial[]> {
  const seeds = chainSeeds(opts.web);
  const ref = makeDir(opts, seeds);
  const trial = makeDir(opts, seeds);
  const random = prng(opts.seed);
  const trials: StageTrial[] = [];
  try {
    let before = comparable(await snapshot(trial, 'before the chain'), trial);
    for (const stage of KILL_STAGES) {
      const killed = !opts.stages || opts.stages.includes(stage);
      const log = opts.log ?? (() => {});
      const windowMs = await runReference(opts.reference, stage, ref);
      log(`${stage}: reference ran in ${Math.round(windowMs)} ms`);
      const refSnap = await snapshot(ref, `after the reference ${stage}`);
      if (stage === 'generate' || stage === 'crawl') ref.segment = newestSegment(refSnap);
      const expected = comparable(refSnap, ref);
      const killAfterMs = Math.floor(random() * windowMs);
      const where = `[kill9 chain seed ${opts.seed}, ${stage} killed ${killAfterMs} ms into a ${Math.round(windowMs)} ms window; ${trial.cwd}]`;
      try {
        if (!killed) {
          const r = await runChild(stageArgv(stage, trial), trial);
          assert.equal(r.result.code, 0, r.result.stderr.slice(-2000));
        } else {
          const t = await killTrial(stage, trial, before, expected, opts.web, killAfterMs, log);
          trials.push({ ...t, windowMs: Math.round(windowMs) });
          opts.onTrial?.(trials[trials.length - 1]!);
        }
        const snap = await snapshot(trial, `after ${stage} ran again`);
        if (stage === 'generate' || stage === 'crawl') {
          // the newest new segment is the round's; an older new one is a killed generate's (a re-run made another)
          const names = snap.segments.map((s) => s.name).filter((n) => !trial.known.has(n)).sort();
          assert.ok(names.length > 0, `${stage} made a segment`);
          trial.segment = join('crawl', 'segments', names[names.length - 1]!);
          for (const n of names.slice(0, -1)) trial.extra.add(n);
          for (const n of names) trial.known.add(n);
        }
        const after = comparable(snap, trial);
        assertSameCrawl(after, expected, `after ${stage} ran again`);
        before = after;
      } catch (err) {
        (err as Error).message = `${where} ${(err as Error).message}`;
        throw err;
      }
    }
    return trials;
  } finally {
    for (const d of [ref, trial]) rmSync(d.cwd, { recursive: true, force: true });
  }
}

function assertSameCrawl(got: Comparable, want: Comparable, when: string): void {
  for (const key of ['crawlDb', 'linkDb', 'index'] as const) {
    assert.deepEqual({ missing: linesMissingFrom(want[key], got[key]), unexpected: linesMissingFrom(got[key], want[key]) }, { missing: [], unexpected: [] }, `${when}: the ${key} differs from the uninterrupted run's`);
  }
  assert.equal(got.segments.length, want.segments.length, `${when}: as many segments as the uninterrupted run`);
  got.segments.forEach((parts, i) => assert.deepEqual(parts, want.segments[i], `${when}: segment ${i + 1}'s parts equal the uninterrupted run's`));
}

/** Kills one command at `killAfterMs` into its work, checks what it left, runs it again. */
async function killTrial(stage: KillStage, dir: ChainDir, before: Comparable, expected: Comparable, web: TestWeb, killAfterMs: number, log: (line: string) => void): Promise<Omit<StageTrial, 'windowMs'>> {
  web.clearLog();
  const argv = stageArgv(stage, dir);
  const first = await runChild(argv, dir, killAfterMs);
  log(`${stage}: ${first.exitedFirst ? `ended (exit ${first.result.code}) before the kill at` : 'killed'} ${killAfterMs} ms`);
  if (first.exitedFirst) assert.equal(first.result.code, 0, `${stage} ended before the kill, and failed: ${first.result.stderr.slice(-2000)}`);
  else await dir.afterKill(first.pid);
  const killed = comparable(await snapshot(dir, `after ${stage} was killed`), dir);
  assertOldOrNew(stage, killed, before, expected);
  const left = first.exitedFirst ? 'exited' : same(killed, before) ? 'old' : same(killed, expected) ? 'new' : 'partial';

  // the segment the command writes: the round's, or the one a killed crawl generated
  const lastOf = (c: Comparable) => (stage !== 'crawl' || c.segments.length > before.segments.length ? c.segments[c.segments.length - 1] : undefined);
  const storedUrls = [...new Set((lastOf(killed)?.crawl_fetch?.records ?? []).map((l) => l.slice(0, l.indexOf(' '))))];
  const stored = stage === 'parse' ? lastOf(killed)?.parse_data?.records.length ?? 0 : storedUrls.length;

  // updatedb merged, or the crawl's round ended: running it again would merge twice / crawl a round more
  const reran = !((stage === 'updatedb' || stage === 'crawl') && same(killed, expected));
  if (reran) {
    const again = dir.inProcess ? await runInProcess(argv, dir) : await runChild(argv, dir);
    log(`${stage}: re-run ended with exit ${again.result.code} after ${Math.round(again.workMs)} ms${again.result.code ? `: ${again.result.stderr.slice(-3000)}` : ''}`);
    if (stage === 'fetch' && lastOf(killed)?.crawl_fetch?.complete) {
      assert.equal(again.result.code, 3, `a fetch re-run on a fetched segment is refused: ${again.result.stderr.slice(-1500)}`);
      assert.match(again.result.stderr, /NUTCH_SEGMENT_ALREADY_FETCHED/);
    } else if (stage === 'parse' && lastOf(killed)?.parse_data?.complete && lastOf(killed)?.parse_text?.complete && lastOf(killed)?.crawl_parse?.complete) {
      assert.equal(again.result.code, 1, `a parse re-run on a parsed segment is skipped (exit 1, nothing to do): ${again.result.stderr.slice(-1500)}`);
      assert.match(again.result.stderr, /already parsed/);
    } else {
      assert.equal(again.result.code, 0, `${stage} re-run after the kill: ${again.result.stderr.slice(-3000)}`);
    }
  }
  if (stage === 'fetch' || stage === 'crawl') {
    for (const url of storedUrls) assert.equal(web.requestsFor(url).length, 1, `${url}, stored before the kill, was requested ${web.requestsFor(url).length} times`);
    const last = expected.segments[expected.segments.length - 1]!;
    for (const line of last.crawl_fetch?.records ?? []) {
      const url = line.slice(0, line.indexOf(' '));
      assert.ok(web.requestsFor(url).length <= 2, `${url} was requested ${web.requestsFor(url).length} times (once, or twice when the kill came before its batch was stored)`);
    }
  }
  return { stage, killAfterMs, left, reran, ...(stage === 'fetch' || stage === 'parse' || stage === 'crawl' ? { storedBeforeKill: stored } : {}) };
}

/** What a kill may leave: each store as before the command or as after it; segment parts a part of the way, each record once. */
function assertOldOrNew(stage: KillStage, got: Comparable, before: Comparable, after: Comparable): void {
  const unchanged = (...keys: ('crawlDb' | 'linkDb' | 'index')[]) => {
    for (const key of keys) assert.ok(same(got[key], before[key]), `after the kill: ${stage} changed the ${key}: ${JSON.stringify({ missing: linesMissingFrom(before[key], got[key]).slice(0, 5), unexpected: linesMissingFrom(got[key], before[key]).slice(0, 5) })}`);
  };
  const oldOrNew = (key: 'crawlDb' | 'linkDb') => {
    assert.ok(same(got[key], before[key]) || same(got[key], after[key]), `after the kill: the ${key} is neither as before ${stage} nor as after it: ${JSON.stringify({ notNew: linesMissingFrom(got[key], after[key]).slice(0, 5), notOld: linesMissingFrom(got[key], before[key]).slice(0, 5) })}`);
  };
  const oldSegments = () => {
    assert.ok(got.segments.length >= before.segments.length, 'after the kill: no segment was lost');
    before.segments.forEach((parts, i) => assert.deepEqual(got.segments[i], parts, `after the kill: segment ${i + 1} is as before ${stage}`));
  };
  /** Every part of segment `i` holds a subset of the uninterrupted run's records, each once, and all of them once complete. */
  const partOfTheWay = (i: number, j = i) => {
    const parts = got.segments[i]!;
    const want = after.segments[j]!;
    for (const [part, p] of Object.entries(parts) as [keyof SegmentSnapshot['parts'], { complete: boolean; records: string[] }][]) {
      const w = want[part];
      assert.ok(w, `after the kill: ${part} exists, which the uninterrupted run did not write`);
      assert.deepEqual(linesMissingFrom(p.records, w.records), [], `after the kill: ${part} holds only records of the uninterrupted run, each once`);
      if (p.complete) assert.deepEqual(p.records, w.records, `after the kill: ${part} is complete (_SUCCESS) and holds every record`);
    }
  };
  switch (stage) {
    case 'inject':
    case 'updatedb':
    case 'dedup':
      oldOrNew('crawlDb');
      unchanged('linkDb', 'index');
      assert.deepEqual(got.segments, before.segments);
      break;
    case 'invertlinks':
      oldOrNew('linkDb');
      unchanged('crawlDb', 'index');
      assert.deepEqual(got.segments, before.segments);
      break;
    case 'generate':
      unchanged('crawlDb', 'linkDb', 'index');
      oldSegments();
      // none, or published whole: a complete crawl_generate equal to the uninterrupted run's (a killed generate's staged segment is never listed)
      for (const parts of got.segments.slice(before.segments.length)) assert.deepEqual(parts, after.segments[after.segments.length - 1], 'after the kill: a published segment is whole');
      break;
    case 'fetch':
    case 'parse':
      unchanged('crawlDb', 'linkDb', 'index');
      assert.equal(got.segments.length, before.segments.length);
      got.segments.slice(0, -1).forEach((parts, i) => assert.deepEqual(parts, before.segments[i]));
      partOfTheWay(got.segments.length - 1);
      break;
    case 'index':
    case 'clean': {
      unchanged('crawlDb', 'linkDb');
      assert.deepEqual(got.segments, before.segments);
      const known = new Set([...before.index, ...after.index]);
      assert.deepEqual(got.index.filter((l) => !known.has(l)), [], `after the kill: the index holds only documents of before or after ${stage}`);
      if (stage === 'clean') assert.deepEqual(linesMissingFrom(after.index, got.index), [], 'after the kill: clean removed only documents it removes');
      break;
    }
    case 'crawl': {
      oldOrNew('linkDb');
      const known = new Set([...before.crawlDb, ...after.crawlDb]);
      // a whole round runs: the CrawlDb may be between two of its commits (after updatedb, before dedup), so only its URLs are checked
      const odd = got.crawlDb.filter((l) => !known.has(l) && !after.crawlDb.some((a) => a.split(' ')[0] === l.split(' ')[0]));
      assert.deepEqual(odd, [], 'after the kill: the CrawlDb holds no URL the uninterrupted crawl does not know');
      oldSegments();
      assert.ok(got.segments.length <= before.segments.length + 1, 'after the kill: at most one new segment');
      if (got.segments.length > before.segments.length) partOfTheWay(got.segments.length - 1, after.segments.length - 1);
      const indexed = new Set([...before.index, ...after.index]);
      assert.deepEqual(got.index.filter((l) => !indexed.has(l)), [], 'after the kill: the index holds only documents of before or after the crawl');
      break;
    }
  }
}
