/** The input stores of a merge tool, each opened and checked to exist; `into` collects them for closing. */
import { requireExisting } from '../existing-stores.js';

export async function openExistingInputs<S extends { exists(): Promise<boolean> }>(
  paths: readonly string[],
  open: (path: string) => Promise<S>,
  kind: 'CrawlDb' | 'LinkDb',
  into: S[],
): Promise<void> {
  for (const path of paths) {
    const db = await open(path);
    into.push(db);
    await requireExisting(db, kind, path);
  }
}
