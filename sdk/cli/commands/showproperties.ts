/** `nutch showproperties [-json]`: every property's resolved value and the layer it came from. */
import { describeSource } from '../../../core/config/configuration.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command } from '../command.js';

const usage = 'Usage: nutch showproperties [-json] [-D k=v ...]';

export const showPropertiesCommand: Command = {
  name: 'showproperties',
  summary: 'print every property with its value and where it came from',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-json'] }, usage);
    const ctx = cliContext(io, args.defines);
    try {
      const rows = ctx.conf.names().map((name) => {
        const from = ctx.conf.sourceOf(name);
        let value: unknown;
        try {
          value = ctx.conf.get(name);
        } catch {
          value = undefined;
        }
        return { name, value: value ?? null, layer: from?.layer ?? 'default', source: from ? describeSource(from) : 'unset', declaredBy: ctx.conf.definition(name)?.declaredBy ?? null };
      });
      if (args.flags.has('-json')) io.stdout.write(JSON.stringify(rows, null, 2) + '\n');
      else for (const r of rows) io.stdout.write(`${r.name}\t${Array.isArray(r.value) ? r.value.join(',') : String(r.value ?? '')}\t${r.source}\n`);
      return ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
