/**
 * `nutch robotsparser <robots-file-or-url> <url-file> [<agent-names>]`, as Nutch's RobotRulesParser:
 * parses a local robots.txt (or fetches the robots.txt of a URL through its protocol, with Nutch's
 * status rules) and prints `allowed:\t<url>` or `not allowed:\t<url>` for each URL of the file
 * (`-` or -stdin: standard input). Agent names (comma-separated) go before http.robots.agents.
 * -json prints one object per URL.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { NutchError, errorMessage } from '../../../core/errors.js';
import { RobotRulesParser } from '../../../core/protocol/robots/index.js';
import type { RobotRules } from '../../../core/extension-points/protocol.js';
import { parseArgs } from '../args.js';
import { cliContext } from '../context-from-args.js';
import { ExitCode, writeLine, type Command } from '../command.js';
import { checkerLines } from './checker-input.js';

const usage = `Usage: nutch robotsparser [-D k=v ...] [-json] <robots-file-or-url> (<url-file> | - | -stdin) [<agent-names>]
  <robots-file-or-url>  a local robots.txt, or a URL (http:, https:, file:) whose robots.txt is fetched
  <url-file>            URLs to check, one per line
  <agent-names>         comma-separated agent names (default http.agent.name, http.robots.agents)`;

export const robotsParserCommand: Command = {
  name: 'robotsparser',
  summary: 'check URLs against a robots.txt (RobotRulesParser)',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['-json', '-stdin'] }, usage);
    const [source, urlFile, agents] = args.positional;
    const stdin = args.flags.has('-stdin') || urlFile === '-';
    if (!source || (!urlFile && !stdin) || args.positional.length > 3) throw new NutchError('NUTCH_USAGE', usage);
    const agentArg = args.flags.has('-stdin') && !agents ? urlFile : agents;
    const defines = { ...args.defines };
    if (agentArg) {
      defines['http.robots.agents'] = agentArg;
      if (!defines['http.agent.name']) defines['http.agent.name'] = agentArg.split(',')[0]!.trim();
    }
    const ctx = cliContext(io, defines);
    try {
      let rules: RobotRules;
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
        const protocol = await ctx.extensions.protocolFactory().getProtocol(source);
        if (!protocol.getRobotRules) throw new NutchError('NUTCH_USAGE', `The protocol for ${source} has no robots.txt support.`);
        rules = await protocol.getRobotRules(source, null, { signal: io.signal });
      } else {
        let bytes: Buffer;
        try {
          bytes = readFileSync(resolve(io.cwd, source));
        } catch (err) {
          throw new NutchError('NUTCH_USAGE', `Cannot read robots.txt file ${source}: ${errorMessage(err)}\n${usage}`);
        }
        rules = new RobotRulesParser(ctx.conf, ctx.log).parse(bytes);
      }
      const json = args.flags.has('-json');
      const lines = stdin
        ? checkerLines(io.stdin, true, [], io.signal)
        : checkerLines(io.stdin, false, readUrlFile(resolve(io.cwd, urlFile!)), io.signal);
      for await (const line of lines) {
        const url = line.trim();
        if (!url) continue;
        const allowed = rules.isAllowed(url);
        await writeLine(io.stdout, json
          ? JSON.stringify({ url, allowed, crawlDelay: rules.getCrawlDelay() })
          : `${allowed ? 'allowed' : 'not allowed'}:\t${url}`);
      }
      return ExitCode.OK;
    } finally {
      await ctx.close();
    }
  },
};

function readUrlFile(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split(/\r?\n/).filter((l) => l.trim() && !l.trimStart().startsWith('#'));
  } catch (err) {
    throw new NutchError('NUTCH_USAGE', `Cannot read URL file ${path}: ${errorMessage(err)}\n${usage}`);
  }
}
