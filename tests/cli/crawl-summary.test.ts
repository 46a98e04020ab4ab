/** The crawl summary's wording after a stop: where it stopped, and a resume hint only when there is one. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatSummary, RoundRecorder } from '../../sdk/cli/crawl-summary.js';

function roundsWith(stages: string[]): RoundRecorder {
  const r = new RoundRecorder();
  for (const stage of stages) {
    r.onProgress({ type: 'stage-start', stage: stage as never, round: 1, args: { segment: '/c/segments/20260102030405', segments: ['/c/segments/20260102030405'] } });
    r.onProgress({ type: 'stage-end', stage: stage as never, round: 1, counters: stage === 'fetch' ? { success: 4, notfound: 1, bytes_downloaded: 99 } : {}, ms: 1 });
  }
  return r;
}

// every stage of a round leaves the segment open (core/crawl/crawl/segment-state.ts), so each gets the hint
for (const [stage, hint] of [['fetch', true], ['parse', true], ['updatedb', true], ['invertlinks', true], ['dedup', true], ['index', true], ['clean', true]] as const) {
  test(`stopped during ${stage}: says so${hint ? ', and that the next crawl finishes the segment' : '; no resume hint (the next round starts afresh)'}`, () => {
    const done = ['fetch', 'parse', 'updatedb', 'invertlinks', 'dedup', 'index', 'clean'];
    const rounds = roundsWith(done.slice(0, done.indexOf(stage) + 1)).list();
    const out = formatSummary({ rounds: 1, 'stopped.by.signal': 1, 'stopped.round': 1, [`stopped.in.${stage}`]: 1 }, 2000, rounds, 'c/crawldb');
    assert.match(out, new RegExp(`^Crawl stopped by signal in round 1 during ${stage} of segment 20260102030405: 0 round\\(s\\) finished in 2\\.0 s\\n`));
    assert.match(out, /^ {2}round 1 \(segment 20260102030405\): fetched 5 \(success=4 notfound=1\)/m);
    assert.match(out, /crawldb: +not counted after a stop \(nutch readdb c\/crawldb -stats counts it\)/);
    assert.equal(out.includes('Run the same nutch crawl again to finish segment 20260102030405'), hint);
  });
}

test('clean over several rounds: the distinct gone or duplicate count, not the sum of every round re-sending them', () => {
  const r = new RoundRecorder();
  for (const [round, deleted] of [[1, 0], [2, 8], [3, 272]] as const) {
    r.onProgress({ type: 'stage-start', stage: 'clean', round, args: {} });
    r.onProgress({ type: 'stage-end', stage: 'clean', round, counters: { 'Deleted documents': deleted }, ms: 1 });
  }
  const out = formatSummary({ rounds: 3, 'clean.Deleted documents': 280, 'crawldb.total': 300, 'crawldb.db_gone': 271, 'crawldb.db_duplicate': 1 }, 1000, r.list(), 'c/crawldb');
  assert.match(out, /^ {2}clean: +Deleted documents=272 \(gone or duplicate at the end; 280 deletes sent over the rounds\)$/m);
  assert.match(out, /^ {2}round 3: 272 gone or duplicate deleted from the index$/m);
});
