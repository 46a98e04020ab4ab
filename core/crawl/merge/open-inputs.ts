/** The input stores of a merge tool, each opened and checked to exist; `into` collects them for closing. */
import { NutchError } from '../../errors.js';

export async function openExistingInputs<S extends { exists(): Promise<boolean> }>(
  paths: readonly string[],
  open: (path: string) => Promise<S>,
  kind: 'CrawlDb' | 'LinkDb',
  into: S[],
): Promise<void> {
  for (const path of paths) {
    const db = await open(path);
    into.push(db);
    if (!(await db.exists())) throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `${kind} ${path} does not exist.`, { file: path });
  }
}
