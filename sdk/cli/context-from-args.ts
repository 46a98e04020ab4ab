/** Builds the NutchContext for a CLI command from the working directory, the environment and -D. */
import { createContext, type NutchContext } from '../../core/crawl/context.js';
import { createConsoleLogger, type LogLevel } from '../../core/log.js';
import type { CliIO } from './command.js';

export function cliContext(io: CliIO, defines: Record<string, string>): NutchContext {
  const level = (io.env.NUTCH_LOG_LEVEL as LogLevel | undefined) ?? 'warn';
  const logger = createConsoleLogger(level, {}, (line) => io.stderr.write(line + '\n'));
  return createContext({ cwd: io.cwd, env: io.env, defines, logger, logLevel: level, root: io.cwd });
}
