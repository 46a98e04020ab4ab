/** The command table: Nutch's command names. Each command lives in its own file under commands/. */
import type { Command } from './command.js';
import { injectCommand } from './commands/inject.js';
import { pluginCommand } from './commands/plugin.js';
import { showPropertiesCommand } from './commands/showproperties.js';
import { filterCheckerCommand } from './commands/filterchecker.js';
import { normalizerCheckerCommand } from './commands/normalizerchecker.js';
import { parseCommand } from './commands/parse.js';
import { parseCheckerCommand } from './commands/parsechecker.js';

export const commands: Command[] = [
  injectCommand,
  pluginCommand,
  showPropertiesCommand,
  filterCheckerCommand,
  normalizerCheckerCommand,
  parseCommand,
  parseCheckerCommand,
];
