/**
 * A binary min-heap ordered by a "ranks below" predicate: the worst entry sits at index 0. It is the
 * one home of "keep the N best in O(N) memory" — generate's bounded candidates and readdb -topN both
 * keep a heap of at most N entries and replace its top when a better one arrives.
 */
export class WorstFirstHeap<T> {
  readonly items: T[] = [];

  /** `worse(a, b)`: a ranks below b. */
  constructor(private readonly worse: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(e: T): void {
    const a = this.items;
    a.push(e);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(a[i]!, a[p]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }

  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      this.down(0);
    }
    return top;
  }

  /** Replaces the worst entry by `e` (the caller has checked that `e` ranks above it). */
  replaceTop(e: T): void {
    this.items[0] = e;
    this.down(0);
  }

  /** Replaces the content (heapified in place). */
  reset(entries: T[]): void {
    this.items.length = 0;
    this.items.push(...entries);
    for (let i = (this.items.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  private down(i: number): void {
    const a = this.items;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < a.length && this.worse(a[l]!, a[m]!)) m = l;
      if (r < a.length && this.worse(a[r]!, a[m]!)) m = r;
      if (m === i) return;
      [a[i], a[m]] = [a[m]!, a[i]!];
      i = m;
    }
  }
}
