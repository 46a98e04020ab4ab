/**
 * The shared step of mergedb and mergelinkdb: records of several stores (each scanned in URL order),
 * optionally renamed or dropped by a rewrite (-normalize / -filter), sorted by URL through an
 * ExternalSort (a rewrite breaks the scan order; memory stays bounded) and grouped per URL for the
 * caller's reduce; then written through one update session that also deletes what the output held
 * before and the merge did not produce, so the output is replaced as Nutch installs a new `current`.
 */
import { ExternalSort } from '../../storage/external-sort.js';
import type { Keyed } from '../../storage/interfaces.js';
import { compareUrls } from '../../storage/url-order.js';
import { yieldToEventLoop } from '../../storage/yield.js';
import { count, type Counters } from '../progress.js';

export interface MergeSource<V> {
  name: string;
  scan(): AsyncIterable<Keyed<V>>;
}

export interface MergeSink<V> {
  put(records: readonly Keyed<V>[]): Promise<void>;
  delete(urls: readonly string[]): Promise<void>;
}

export interface MergeOptions<V> {
  sources: MergeSource<V>[];
  /** The output's records before the merge (URL order), so those the merge does not produce are deleted. */
  previous: AsyncIterable<Keyed<V>>;
  /** Renames (normalise) or drops (filter: null) a URL; absent = keep every URL as is. */
  rewrite?: (url: string) => string | null;
  /** Serialises a value for the sort's scratch space and back. */
  encode(v: V): string;
  decode(s: string): V;
  /** Folds the values of one URL, in source order (first source first), into the output value. */
  reduce(url: string, values: V[]): V | null;
  sink: MergeSink<V>;
  counters: Counters;
  signal?: AbortSignal;
  batchSize?: number;
}

export async function mergeStores<V>(o: MergeOptions<V>): Promise<void> {
  const sort = new ExternalSort({ columns: 1 });
  try {
    for (const source of o.sources) {
      let n = 0;
      for await (const { url, value } of source.scan()) {
        if (o.signal?.aborted) return;
        count(o.counters, 'records read');
        const to = o.rewrite ? o.rewrite(url) : url;
        if (to === null) {
          count(o.counters, 'urls filtered');
          continue;
        }
        if (to !== url) count(o.counters, 'urls normalized');
        sort.add([to, o.encode(value)]);
        if (++n % 4096 === 0) await yieldToEventLoop();
      }
    }
    const batchSize = o.batchSize ?? 500;
    let puts: Keyed<V>[] = [];
    let deletes: string[] = [];
    const previous = o.previous[Symbol.asyncIterator]();
    let prev = await previous.next();
    // deletes the previous output's URLs that sort before `url` (all of them when url is null)
    const dropPreviousBefore = async (url: string | null) => {
      while (!prev.done && (url === null || compareUrls(prev.value.url, url) < 0)) {
        deletes.push(prev.value.url);
        prev = await previous.next();
      }
      if (!prev.done && url !== null && prev.value.url === url) prev = await previous.next();
    };
    const flush = async (force: boolean) => {
      if (deletes.length && (force || deletes.length >= batchSize)) {
        await o.sink.delete(deletes);
        count(o.counters, 'urls deleted', deletes.length);
        deletes = [];
      }
      if (puts.length && (force || puts.length >= batchSize)) {
        await o.sink.put(puts);
        puts = [];
      }
    };
    let current: string | null = null;
    let values: V[] = [];
    const emit = async () => {
      if (current === null) return;
      await dropPreviousBefore(current);
      const merged = o.reduce(current, values);
      if (merged === null) {
        deletes.push(current);
      } else {
        puts.push({ url: current, value: merged });
        count(o.counters, 'urls merged');
      }
      await flush(false);
    };
    for (const [url, encoded] of sort.sorted()) {
      if (o.signal?.aborted) return;
      if (url !== current) {
        await emit();
        current = url;
        values = [];
      }
      values.push(o.decode(encoded as string));
    }
    await emit();
    await dropPreviousBefore(null);
    await flush(true);
  } finally {
    sort.close();
  }
}
