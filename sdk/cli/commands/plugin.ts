/** `nutch plugin list [-json]` and `nutch plugin info <id> [-json]`: what was discovered, what is active and why. */
import { NutchError } from '../../../core/errors.js';
import { describeActivation } from '../../../core/plugin/activation.js';
import type { NutchContext } from '../../../core/crawl/context.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, type Command, type CliIO } from '../command.js';

const usage = 'Usage: nutch plugin list [-json] | nutch plugin info <plugin-id> [-json] | nutch plugin create <package-name> [--point URLFilter|URLNormalizer|IndexingFilter] [--typescript] [--dir <folder>]';

function pluginSummary(ctx: NutchContext, id: string) {
  const d = ctx.plugins.descriptor(id)!;
  const a = ctx.plugins.activation.get(id)!;
  return {
    id: d.id,
    version: d.version,
    source: d.source,
    active: a.active,
    reason: describeActivation(a),
    path: d.root,
    requires: d.requires,
    extensions: d.extensions.map((e) => ({ id: e.id, point: e.point, implementation: e.implementation, aliases: e.aliases, parameters: e.parameters })),
    config: Object.keys(d.config),
  };
}

export const pluginCommand: Command = {
  name: 'plugin',
  summary: 'list discovered plugins and the effective extension chains, or show one plugin',
  usage,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === 'create') return createPlugin(rest, io);
    const args = parseArgs(rest, { flags: ['-json'] }, usage);
    const ctx = cliContext(io, args.defines);
    try {
      if (sub === 'list') {
        const plugins = [...ctx.plugins.descriptors].sort((a, b) => a.id.localeCompare(b.id)).map((d) => pluginSummary(ctx, d.id));
        const chains = ctx.extensions.effectiveChains();
        if (args.flags.has('-json')) {
          io.stdout.write(JSON.stringify({ plugins, chains, skippedExtensions: ctx.plugins.skippedExtensions }, null, 2) + '\n');
          return ExitCode.OK;
        }
        io.stdout.write('Plugins:\n');
        const width = Math.max(...plugins.map((p) => p.id.length), 10);
        for (const p of plugins) io.stdout.write(`  ${p.active ? '*' : ' '} ${p.id.padEnd(width)}  ${p.version.padEnd(8)} ${p.source.padEnd(8)} ${p.reason}\n`);
        for (const s of ctx.plugins.skippedExtensions) io.stdout.write(`  ! extension ${s.extension} of ${s.plugin} skipped: ${s.reason}\n`);
        io.stdout.write('\nExtension chains (in order):\n');
        for (const [point, chain] of Object.entries(chains)) io.stdout.write(`  ${point}: ${chain.length ? chain.join(' -> ') : '(none)'}\n`);
        return ExitCode.OK;
      }
      if (sub === 'info') {
        const id = args.positional[0];
        if (!id) throw new NutchError('NUTCH_USAGE', usage);
        if (!ctx.plugins.descriptor(id)) throw new NutchError('NUTCH_PLUGIN_NOT_FOUND', `No plugin "${id}" was discovered. Known: ${ctx.plugins.descriptors.map((d) => d.id).join(', ')}.`, { plugin: id });
        const s = pluginSummary(ctx, id);
        if (args.flags.has('-json')) {
          io.stdout.write(JSON.stringify(s, null, 2) + '\n');
          return ExitCode.OK;
        }
        io.stdout.write(`${s.id} ${s.version} (${s.source})\n  ${s.reason}\n  path: ${s.path ?? '(object)'}\n  requires: ${s.requires.join(', ') || '-'}\n`);
        for (const e of s.extensions) io.stdout.write(`  extension ${e.id} -> ${e.point} (${e.implementation})${e.aliases.length ? ` aliases: ${e.aliases.join(', ')}` : ''}\n`);
        if (s.config.length) io.stdout.write(`  properties: ${s.config.join(', ')}\n`);
        return ExitCode.OK;
      }
      throw new NutchError('NUTCH_USAGE', usage);
    } finally {
      await ctx.close();
    }
  },
};

/** `nutch plugin create`: a ready plugin package (sdk/plugin-scaffold.ts); needs no configuration. */
async function createPlugin(argv: string[], io: CliIO): Promise<number> {
  const args = parseArgs(argv, { flags: ['--typescript'], values: ['--point', '--dir'] }, usage);
  const name = args.positional[0];
  if (!name || args.positional.length > 1) throw new NutchError('NUTCH_USAGE', usage);
  const { scaffoldPlugin } = await import('../../plugin-scaffold.js');
  const point = args.values.get('--point') as Parameters<typeof scaffoldPlugin>[0]['point'];
  const r = scaffoldPlugin({ name, point, typescript: args.flags.has('--typescript'), dir: args.values.get('--dir'), cwd: io.cwd });
  io.stdout.write(`Created ${r.dir}:\n${r.files.map((f) => `  ${f}`).join('\n')}\nNext: cd ${r.dir} && npm install && npm test\n`);
  return ExitCode.OK;
}
