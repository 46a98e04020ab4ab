/**
 * The logger contract: any object with debug/info/warn/error and child() works (pino, bunyan, console
 * wrappers). The default writes one structured line per event to stderr.
 */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(bindings: Record<string, unknown>): Logger;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
export const LOG_LEVELS = Object.keys(RANK) as LogLevel[];

/**
 * The logger a library uses when its host gave none: warnings and errors only, as Node libraries do
 * (a host's stderr is not ours to fill with progress). NUTCH_LOG_LEVEL raises or lowers it; a value
 * that is not a level is reported once and ignored.
 */
export function createDefaultLogger(envLevel: string | undefined, fallback: LogLevel = 'warn'): { log: Logger; level: LogLevel } {
  const wanted = envLevel?.trim().toLowerCase();
  const valid = !!wanted && (LOG_LEVELS as string[]).includes(wanted);
  const level = valid ? (wanted as LogLevel) : fallback;
  const log = createConsoleLogger(level);
  if (wanted && !valid) log.warn(`NUTCH_LOG_LEVEL="${envLevel}" is not a log level (${LOG_LEVELS.join(', ')}); using ${fallback}`);
  return { log, level };
}

export function createConsoleLogger(level: LogLevel = 'info', bindings: Record<string, unknown> = {}, write: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const emit = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl] < RANK[level]) return;
    const extra = { ...bindings, ...fields };
    const tail = Object.keys(extra).length ? ' ' + Object.entries(extra).map(([k, v]) => `${k}=${formatValue(v)}`).join(' ') : '';
    write(`${new Date().toISOString()} ${lvl.toUpperCase().padEnd(5)} ${msg}${tail}`);
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (b) => createConsoleLogger(level, { ...bindings, ...b }, write),
  };
}

function formatValue(v: unknown): string {
  if (typeof v === 'string') return /\s/.test(v) ? JSON.stringify(v) : v;
  if (v instanceof Error) return JSON.stringify(v.message);
  return JSON.stringify(v);
}

export const silentLogger: Logger = {
  debug() {}, info() {}, warn() {}, error() {},
  child() { return silentLogger; },
};

/** A logger that keeps what it is told, for tests and for `nutch plugin list`'s reasons. */
export interface MemoryLogger extends Logger {
  records: { level: string; msg: string; fields: Record<string, unknown> }[];
}

export function createMemoryLogger(records: MemoryLogger['records'] = [], bindings: Record<string, unknown> = {}): MemoryLogger {
  const push = (level: string) => (msg: string, fields?: Record<string, unknown>) => records.push({ level, msg, fields: { ...bindings, ...fields } });
  return {
    records,
    debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error'),
    child: (b) => createMemoryLogger(records, { ...bindings, ...b }),
  };
}
