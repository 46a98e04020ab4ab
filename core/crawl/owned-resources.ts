/**
 * What a NutchContext creates on demand and owns besides its plugins and storage (the parse worker
 * pool): each resource under its own key, created on first use, closed in reverse creation order when
 * the context closes (or earlier, by release()). Held by the context, never by a module, so two
 * crawlers in one process never share one.
 */
export class OwnedResources {
  private readonly entries = new Map<symbol, { value: unknown; close: () => Promise<void> }>();
  private closed = false;

  /** The resource under `key`, created (and remembered with its close) on first use. */
  get<T>(key: symbol, create: () => T, close: (value: T) => Promise<void>): T {
    const existing = this.entries.get(key);
    if (existing) return existing.value as T;
    if (this.closed) throw new Error('the context is closed; create a new one');
    const value = create();
    this.entries.set(key, { value, close: () => close(value) });
    return value;
  }

  /** The resource under `key` if it exists (never creates it). */
  peek<T>(key: symbol): T | undefined {
    return this.entries.get(key)?.value as T | undefined;
  }

  /** Closes and forgets the resource under `key`; the next get() creates a new one. */
  async release(key: symbol): Promise<void> {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    await entry.close();
  }

  /** Closes every resource, newest first; the first failure is rethrown after all were tried. */
  async closeAll(): Promise<void> {
    this.closed = true;
    let failure: unknown = null;
    for (const key of [...this.entries.keys()].reverse()) {
      try {
        await this.release(key);
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure) throw failure;
  }
}
