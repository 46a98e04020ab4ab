/**
 * A wait with an end: `within(ms, what, promise)` settles as `promise` does, or rejects after `ms`
 * with an error saying what it waited for — so a harness step that can never end (an exit already
 * missed, a line never printed, a pool that never closes) fails naming itself instead of holding the
 * test until the runner's timeout, which names nothing. `onTimeout` runs first (kill the child that
 * was awaited, so nothing is left running) and may return more to say (the child's stderr, the
 * database's sessions). The bound is a safety net for a stuck step, never a timing assertion.
 */
export class WaitTimeout extends Error {
  constructor(readonly what: string, readonly ms: number, detail: string) {
    super(`gave up after ${Math.round(ms / 1000)} s waiting for ${what}${detail ? `: ${detail}` : ''}`);
    this.name = 'WaitTimeout';
  }
}

export function within<T>(ms: number, what: string, promise: Promise<T>, onTimeout?: () => string | void | Promise<string | void>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void (async () => {
        let detail = '';
        try {
          detail = (await onTimeout?.()) ?? '';
        } catch (err) {
          detail = `(and its diagnosis failed: ${(err as Error).message})`;
        }
        reject(new WaitTimeout(what, ms, detail));
      })();
    }, ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
