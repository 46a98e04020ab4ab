/**
 * "Does the CrawlDb (LinkDb) exist": the one check every stage that reads one makes before using it, as
 * Nutch fails a job whose input path does not exist. The advice says what to run; the store is closed
 * again when it is missing.
 */
import { NutchError } from '../errors.js';
import type { CrawlDb, LinkDb } from '../storage/interfaces.js';
import type { NutchContext } from './context.js';

/** Opens the CrawlDb, failing with NUTCH_STORAGE_NOT_FOUND (the message ends with `advice`) when it was never written. */
export function openExistingCrawlDb(ctx: NutchContext, path: string, advice = '; run nutch inject first, or check the path.'): Promise<CrawlDb> {
  return openExisting(() => ctx.storage.openCrawlDb(path), 'CrawlDb', path, advice);
}

/** Opens the LinkDb, failing as openExistingCrawlDb when it was never written. */
export function openExistingLinkDb(ctx: NutchContext, path: string, advice = '; run nutch invertlinks first, or check the path.'): Promise<LinkDb> {
  return openExisting(() => ctx.storage.openLinkDb(path), 'LinkDb', path, advice);
}

async function openExisting<S extends { exists(): Promise<boolean>; close(): Promise<void> }>(open: () => Promise<S>, kind: 'CrawlDb' | 'LinkDb', path: string, advice: string): Promise<S> {
  const db = await open();
  try {
    await requireExisting(db, kind, path, advice);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

/** Throws NUTCH_STORAGE_NOT_FOUND naming the store when it does not exist. */
export async function requireExisting(store: { exists(): Promise<boolean> }, kind: 'CrawlDb' | 'LinkDb', path: string, advice = '.'): Promise<void> {
  if (!(await store.exists())) throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `${kind} ${path} does not exist${advice}`, { file: path });
}

/** Whether the CrawlDb or HostDb at `path` exists (the crawl loop asks before its HostDb steps), the store closed again. */
export async function storeExists(ctx: NutchContext, kind: 'crawldb' | 'hostdb', path: string): Promise<boolean> {
  const store = kind === 'crawldb' ? await ctx.storage.openCrawlDb(path) : await ctx.storage.openHostDb(path);
  try {
    return await store.exists();
  } finally {
    await store.close();
  }
}
