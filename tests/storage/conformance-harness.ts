/**
 * What the storage conformance suite runs on: the harness an engine's test file gives (a fresh,
 * isolated engine per test) and the helpers its tests share (records, URL orders, a second process
 * holding a writer session).
 */
import type { TestContext } from 'node:test';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { createCrawlDatum, type CrawlDatum } from '../../core/model/crawl-datum.js';
import type { StorageEngine } from '../../core/storage/interfaces.js';
import { projectRoot } from '../helpers/temp-dir.js';

export interface EngineHandle {
  engine: StorageEngine;
  /** Working directory relative store paths are taken from. */
  cwd: string;
  /** storage.url that opens the same stores in another process ('' = embedded). */
  storageUrl: string;
  /** A store path under cwd, as the engine is given it (absolute for the embedded engine, which has no cwd). */
  p(rel: string): string;
  /** Another engine on the same stores, as a second process would have. */
  another(opts?: { warn?: (msg: string) => void }): StorageEngine;
}

export interface ConformanceHarness {
  /** A fresh engine on fresh, empty stores; closed after the test. */
  make(t: TestContext, opts?: { batchSize?: number; warn?: (msg: string) => void }): Promise<EngineHandle>;
  /** Records the rows each storage round trip returned, until stop() (bounded-memory checks). */
  trackRows(): { rows: number[]; stop(): void };
  /** `force` ends a live holder's session (PostgreSQL) — the embedded engine only forces a lock file (tests/storage/lock.test.ts). */
  forceEndsLiveHolder: boolean;
}

export function datum(i: number, extra: Partial<CrawlDatum> = {}): CrawlDatum {
  return createCrawlDatum({ status: 1, fetchTime: 1_700_000_000_000 + i, score: i / 10, ...extra });
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** URLs whose code-point order differs from JavaScript's `<`, with %-escapes and non-ASCII hosts. */
export const TRICKY_URLS = [
  'http://a.example/',
  'http://a.example/%41',
  'http://a.example/%7e',
  'http://a.example/%7E',
  'http://a.example/~',
  'http://a.example/Z',
  'http://a.example/a b',
  'http://a.example/é',
  'http://a.example/ß',
  'http://a.example/\u00ff',
  'http://a.example/\u0100',
  'http://a.example/日本',
  'http://a.example/\uE000',
  'http://a.example/\uFF01',
  'http://a.example/\u{1F600}',
  'http://a.example/\u{10000}',
  'http://b.example',
  'http://xn--bcher-kva.example/',
  'http://bücher.example/',
  'https://a.example/',
];

/** A child process holding a CrawlDb session open with `records` written (tests/storage/conformance-child.ts). */
export function spawnHolder(h: EngineHandle, crawlDb: string, records: number): Promise<{ child: ChildProcessWithoutNullStreams; lines: AsyncIterator<string> }> {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(projectRoot, 'tests', 'storage', 'conformance-child.ts'), h.storageUrl, h.cwd, crawlDb, String(records)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return lines.next().then((first) => {
    if (first.done || first.value !== 'ready') throw new Error(`child did not get ready: ${stderr}`);
    return { child, lines };
  });
}

export function exited(child: ChildProcessWithoutNullStreams): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('close', () => resolve()));
}

/** Retries fn while it fails with `code` (a dead holder's lock goes away when the server notices the closed connection). */
export async function eventually<T>(fn: () => Promise<T>, code: string): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if ((err as { code?: string }).code !== code || i >= 100) throw err;
      await sleep(50);
    }
  }
}
