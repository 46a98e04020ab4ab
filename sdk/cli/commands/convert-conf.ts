/**
 * `nutch convert-conf <nutch-conf-dir> <out-dir>`: writes nutch-ts's JSON forms of an Apache Nutch
 * conf/ directory (nutch-site.json, parse-plugins.json, index-writers.json, rule files copied) and
 * lists every property nutch-ts does not use, on stdout and in <out-dir>/unsupported-properties.txt.
 * nutch-ts also reads the XML files as they are; converting is for those who want one format.
 */
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { createContext } from '../../../core/crawl/context.js';
import { createConsoleLogger } from '../../../core/log.js';
import { parseArgs } from '../args.js';
import { ExitCode, writeLine, type Command } from '../command.js';
import { convertNutchConf } from '../nutch-conf-converter.js';

const usage = `Usage: nutch convert-conf <nutch-conf-dir> <out-dir>
  <nutch-conf-dir>  an Apache Nutch conf/ directory (nutch-site.xml, nutch-default.xml, parse-plugins.xml, index-writers.xml, rule files)
  <out-dir>         where nutch-site.json, parse-plugins.json, index-writers.json, the rule files and unsupported-properties.txt are written`;

export const convertConfCommand: Command = {
  name: 'convert-conf',
  summary: "convert an Apache Nutch conf/ directory (XML) to nutch-ts's JSON forms",
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, {}, usage);
    if (args.positional.length !== 2) throw new NutchError('NUTCH_USAGE', usage);
    const [confDir, outDir] = args.positional.map((p) => resolve(io.cwd, p)) as [string, string];
    // Declarations only (nutch-default.json and every plugin's config): no site file of the working directory.
    const logger = createConsoleLogger('error', {}, (line) => io.stderr.write(line + '\n'));
    const ctx = createContext({ cwd: io.cwd, env: {}, root: io.cwd, noSiteFiles: true, defines: args.defines, logger });
    try {
      const report = convertNutchConf(ctx, confDir, outDir);
      for (const f of report.written) await writeLine(io.stdout, `wrote ${f}`);
      for (const f of report.copied) await writeLine(io.stdout, `copied ${f}`);
      await writeLine(io.stdout, `${report.properties} propert${report.properties === 1 ? 'y' : 'ies'} converted; ${report.unused.length} not used by nutch-ts${report.unused.length ? ':' : '.'}`);
      for (const u of report.unused) await writeLine(io.stdout, `  ${u.name} = ${JSON.stringify(u.value.length > 80 ? u.value.slice(0, 77) + '...' : u.value)}  (${u.where}) ${u.reason}`);
      for (const n of report.notes) await writeLine(io.stdout, `note: ${n}`);
      return ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};
