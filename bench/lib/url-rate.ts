/**
 * URLs/s of a synchronous per-URL function (a normaliser or filter chain): a warm-up, then the best of
 * BENCH_ROUNDS (default 3) timed passes, printed as one line and returned.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

export function measureUrlRate(name: string, urls: string[], fn: (u: string) => string | null): number {
  let kept = 0;
  for (const u of urls.slice(0, 20_000)) fn(u);
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    kept = 0;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < urls.length; i++) if (fn(urls[i]!) !== null) kept++;
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
  }
  const rate = urls.length / best;
  console.log(`${name.padEnd(46)} ${Math.round(rate).toLocaleString('en-US').padStart(12)} URLs/s  (${(best * 1000).toFixed(0)} ms for ${urls.length.toLocaleString('en-US')}, ${kept.toLocaleString('en-US')} kept)`);
  return rate;
}
