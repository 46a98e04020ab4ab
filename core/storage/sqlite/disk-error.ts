/**
 * A store write refused by the disk — full (SQLITE_FULL, ENOSPC, EDQUOT) or failing (SQLITE_IOERR_*,
 * EIO: on a full disk SQLite often reports it so, when it cannot grow its shared-memory or journal
 * file) — becomes NUTCH_STORAGE_WRITE_FAILED naming the store file, instead of a bare "database or disk
 * is full" with a stack trace. Nothing committed is lost: every store commits atomically or in batches,
 * so the stage can be run again once there is space.
 */
import { NutchError } from '../../errors.js';

const ERRNO = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS']);

export function isDiskError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR') || code === 'SQLITE_READONLY' || ERRNO.has(code));
}

export function diskError(file: string, err: unknown): NutchError {
  const code = (err as { code?: string }).code ?? '';
  const why = code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT'
    ? 'the disk (or quota) is full'
    : code === 'EROFS' || code === 'SQLITE_READONLY' ? 'the file system is read-only' : 'an I/O error, most often a full disk';
  return new NutchError(
    'NUTCH_STORAGE_WRITE_FAILED',
    `Cannot write ${file}: ${why} (${code}: ${(err as Error).message}). The stage stopped; what was committed before is kept. Free space (or fix the disk) and run it again.`,
    { file },
    { cause: err },
  );
}
