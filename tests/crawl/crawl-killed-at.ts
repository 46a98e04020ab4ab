/**
 * A child process for tests/crawl/crawl-kill-points.test.ts: the crawl loop with the default stages,
 * as `nutch crawl -i` runs it, that SIGKILLs itself at one exact point — `before:<stage>` as the n-th
 * call of that stage is entered, `after:<stage>` once it has returned — so a test reaches a state a
 * kill after a random delay only hits by luck (a kill between the last updatedb and index, say).
 *
 *   node --import tsx crawl-killed-at.ts <point> <n> <seeds> <crawlDir> <rounds> [key=value ...]
 *
 * Exits 4 when the crawl ended without reaching the point (the test then fails naming it).
 */
import { createContext } from '../../core/crawl/context.js';
import { crawl } from '../../core/crawl/crawl/crawl.js';
import type { CrawlStages } from '../../core/crawl/crawl/crawl-stages.js';
import { defaultStages } from '../../core/crawl/stages.js';

const [point, nth, seedDir, crawlDir, rounds, ...defines] = process.argv.slice(2);
const [when, stageName] = (point ?? '').split(':') as ['before' | 'after', keyof CrawlStages];
const n = Number(nth);
if ((when !== 'before' && when !== 'after') || !(stageName in defaultStages) || !(n >= 1) || !seedDir || !crawlDir) {
  process.stderr.write(`usage: crawl-killed-at.ts before|after:<stage> <n> <seeds> <crawlDir> <rounds> [key=value ...]; got ${process.argv.slice(2).join(' ')}\n`);
  process.exit(2);
}

const die = (): Promise<never> => {
  process.kill(process.pid, 'SIGKILL');
  return new Promise<never>(() => {});
};

let calls = 0;
const original = defaultStages[stageName] as (...a: unknown[]) => Promise<unknown>;
const stages = {
  ...defaultStages,
  [stageName]: async (...a: unknown[]) => {
    const hit = ++calls === n;
    if (hit && when === 'before') return die();
    const result = await original(...a);
    if (hit) return die();
    return result;
  },
} as CrawlStages;

const ctx = createContext({
  cwd: process.cwd(),
  includeBuiltins: true,
  defines: Object.fromEntries(defines.map((d) => [d.slice(0, d.indexOf('=')), d.slice(d.indexOf('=') + 1)])),
});
try {
  await crawl(ctx, stages, { crawlDir, seedDir, rounds: Number(rounds), index: true });
} finally {
  await ctx.close();
}
process.stderr.write(`the crawl ended without reaching ${point} #${n} (${calls} calls)\n`);
process.exit(4);
