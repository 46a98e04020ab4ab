/**
 * Runs one CLI invocation: dispatch, help and version, error reporting with codes, Nutch's exit codes.
 * `nutch help <command>`, `nutch <command> -h|--help` print that command's usage to stdout (exit 0);
 * a mistyped command or option exits 2 naming the nearest known one.
 */
import { errorMessage, isNutchError } from '../../core/errors.js';
import { packageVersion } from '../../core/config/package-root.js';
import { commandTable, type CommandEntry } from './command-table.js';
import { ExitCode, type CliIO } from './command.js';
import { unavailableCommands } from './unavailable-commands.js';
import { didYouMean } from './suggest.js';

const CONFIG_CODES = /^NUTCH_(CONFIG|MANIFEST|RULE_FILE_INVALID|PARSE_PLUGINS_INVALID|USAGE|INDEX_WRITERS_INVALID|PLUGIN_DUPLICATE|EXTENSION_NOT_FOUND|PLUGIN_NOT_FOUND|STORAGE_NOT_A_DIRECTORY|HOSTDB_EXPRESSION_INVALID)/;
const HELP = new Set(['-h', '--help']);
const VERSION = new Set(['--version', '-version']);

export function usageText(): string {
  const width = Math.max(...commandTable.map((c) => c.name.length));
  return [
    'Usage: nutch COMMAND [-D property=value ...] [options]',
    'where COMMAND is one of:',
    ...commandTable.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Most commands print help when invoked w/o parameters; `nutch help COMMAND` or `nutch COMMAND --help` always does.',
    '`nutch --version` prints the version.',
  ].join('\n');
}

export function versionText(): string {
  return `nutch-ts ${packageVersion()} (Node.js ${process.version})`;
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || HELP.has(name) || name === 'help') {
    if (name === 'help' && rest.length > 0) return help(rest[0]!, io);
    io.stdout.write(usageText() + '\n');
    return name ? ExitCode.OK : ExitCode.USAGE;
  }
  if (VERSION.has(name)) {
    io.stdout.write(versionText() + '\n');
    return ExitCode.OK;
  }
  const entry = findCommand(name, io);
  if (!entry) return ExitCode.USAGE;
  const command = await entry.load();
  // -h/--help anywhere before a `--` asks for this command's usage (no command takes them as options)
  const end = rest.indexOf('--');
  if ((end < 0 ? rest : rest.slice(0, end)).some((a) => HELP.has(a))) {
    io.stdout.write(command.usage + '\n');
    return ExitCode.OK;
  }
  try {
    const code = await command.run(rest, io);
    // cut short by a polite stop: the work is not all done, so the exit says "stopped" (130)
    return code === ExitCode.OK && io.signal.aborted ? ExitCode.INTERRUPTED : code;
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

/** `nutch help <command>`: the command's usage on stdout. */
async function help(name: string, io: CliIO): Promise<number> {
  const entry = findCommand(name, io);
  if (!entry) return ExitCode.USAGE;
  io.stdout.write((await entry.load()).usage + '\n');
  return ExitCode.OK;
}

/**
 * The command of that name, or undefined after telling stderr: what to use instead for a bin/nutch
 * command nutch-ts does not build, else the nearest name when there is one.
 */
function findCommand(name: string, io: CliIO): CommandEntry | undefined {
  const command = commandTable.find((c) => c.name === name);
  if (command) return command;
  if (Object.hasOwn(unavailableCommands, name)) {
    io.stderr.write(`nutch ${name}: not available in nutch-ts; ${unavailableCommands[name]}.\n`);
    return undefined;
  }
  const near = didYouMean(name, commandTable.map((c) => c.name));
  io.stderr.write(`Unknown command "${name}".${near ? ` Did you mean "${near}"?` : ''}\n${usageText()}\n`);
  return undefined;
}
