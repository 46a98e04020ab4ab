/**
 * "Did you mean" for mistyped command and option names: the known name nearest by edit distance
 * (a swap of two neighbouring letters is one edit; case ignored; `-num-threads` and `--num-threads`
 * are near), when it is near enough to be a typo
 * rather than another word: at most one edit in three characters, and for names of one or two
 * characters only a different case or dash count.
 */

export function didYouMean(input: string, candidates: Iterable<string>): string | undefined {
  const bare = (s: string) => s.replace(/^-+/, '').toLowerCase();
  const typed = bare(input);
  const limit = typed.length <= 2 ? 0 : Math.max(1, Math.floor(typed.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === input) continue;
    const d = typoDistance(typed, bare(candidate));
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= limit ? best : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
export function typoDistance(a: string, b: string): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length]!;
}
