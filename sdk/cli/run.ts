/** Runs one CLI invocation: dispatch, error reporting with codes, Nutch's exit codes. */
import { errorMessage, isNutchError } from '../../core/errors.js';
import { commands } from './commands.js';
import { ExitCode, type CliIO } from './command.js';
import { unavailableCommands } from './unavailable-commands.js';

const CONFIG_CODES = /^NUTCH_(CONFIG|MANIFEST|RULE_FILE_INVALID|PARSE_PLUGINS_INVALID|USAGE|INDEX_WRITERS_INVALID|PLUGIN_DUPLICATE|EXTENSION_NOT_FOUND|PLUGIN_NOT_FOUND)/;

export function usageText(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return ['Usage: nutch COMMAND [-D property=value ...] [options]', 'where COMMAND is one of:', ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`), '', 'Most commands print help when invoked w/o parameters.'].join('\n');
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '-h' || name === '--help' || name === 'help') {
    io.stdout.write(usageText() + '\n');
    return name ? ExitCode.OK : ExitCode.USAGE;
  }
  const command = commands.find((c) => c.name === name);
  if (!command && Object.hasOwn(unavailableCommands, name)) {
    io.stderr.write(`nutch ${name}: not available in nutch-ts; ${unavailableCommands[name]}.\n`);
    return ExitCode.USAGE;
  }
  if (!command) {
    io.stderr.write(`Unknown command "${name}".\n${usageText()}\n`);
    return ExitCode.USAGE;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (io.signal.aborted) return ExitCode.INTERRUPTED;
    if (isNutchError(err)) {
      io.stderr.write(`${command.name}: ${err.code}: ${err.message}\n`);
      return CONFIG_CODES.test(err.code) ? ExitCode.USAGE : ExitCode.FAILURE;
    }
    io.stderr.write(`${command.name}: ${errorMessage(err)}\n${(err as Error)?.stack ?? ''}\n`);
    return ExitCode.FAILURE;
  }
}
