/**
 * `nutch server [-host 127.0.0.1] [-port 8081] [-crawlDir crawl] [-token T]`: the crawl dashboard and
 * its JSON API over one crawl directory, with Nutch 1.x's NutchServer options (-host, -port). Bound to
 * loopback by default; bound beyond it, a token is required (-token, $NUTCH_SERVER_TOKEN, or a random
 * one printed at start). Runs until SIGINT/SIGTERM, which stops a running crawl politely first.
 * The HTTP framework is imported here, so no other command pays for loading it.
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { NutchError } from '../../../core/errors.js';
import { createConsoleLogger, type LogLevel } from '../../../core/log.js';
import { intOption, parseArgs } from '../args.js';
import { ExitCode, type Command } from '../command.js';

const usage = `Usage: nutch server [-D k=v ...] [-host <address>] [-port <port>] [-crawlDir <dir>] [-token <token>]
  -host <address>   address to listen on (default 127.0.0.1; anything but loopback needs a token)
  -port <port>      port (default 8081; 0 = any free port)
  -crawlDir <dir>   the crawl directory the dashboard shows and crawls into (default crawl)
  -token <token>    the API token (default $NUTCH_SERVER_TOKEN; off loopback a random one is printed)`;

/** 127.0.0.0/8, ::1 and localhost. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '0:0:0:0:0:0:0:1';
}

export const serverCommand: Command = {
  name: 'server',
  summary: 'serve the crawl dashboard and its JSON API (start/stop a crawl, live progress, stats, search)',
  usage,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['-host', '-port', '-crawlDir', '-token'] }, usage);
    if (args.positional.length) throw new NutchError('NUTCH_USAGE', `Unexpected argument ${args.positional[0]}.\n${usage}`);
    const host = args.values.get('-host') ?? '127.0.0.1';
    const port = intOption(args, '-port', 8081, usage);
    if (port < 0 || port > 65535) throw new NutchError('NUTCH_USAGE', `-port must be 0..65535, got ${port}.\n${usage}`);
    const loopback = isLoopback(host);
    const token = args.values.get('-token') ?? io.env.NUTCH_SERVER_TOKEN ?? (loopback ? undefined : randomBytes(18).toString('base64url'));
    if (token !== undefined && token.length < 8) throw new NutchError('NUTCH_USAGE', `-token must be at least 8 characters.\n${usage}`);

    const [{ createNutch }, { createCrawlServer }] = await Promise.all([import('../../create-nutch.js'), import('../../server/crawl-server.js')]);
    const level = (io.env.NUTCH_LOG_LEVEL as LogLevel | undefined) ?? 'warn';
    const nutch = await createNutch({
      cwd: io.cwd,
      crawlDir: resolve(io.cwd, args.values.get('-crawlDir') ?? 'crawl'),
      config: args.defines,
      logger: createConsoleLogger(level, {}, (line) => io.stderr.write(line + '\n')),
    });
    const { app, session } = createCrawlServer({ nutch, token });
    try {
      const address = await app.listen({ host, port });
      const shown = token !== undefined && !args.values.has('-token') && !io.env.NUTCH_SERVER_TOKEN ? `?token=${token}` : '';
      io.stdout.write(`nutch server: listening on ${address}/${shown} (crawl dir ${nutch.crawlDir})${token !== undefined ? '; the API needs the token' : ''}\n`);
      await new Promise<void>((done) => (io.signal.aborted ? done() : io.signal.addEventListener('abort', () => done(), { once: true })));
      if (session.running) {
        io.stderr.write('nutch server: stopping the running crawl politely…\n');
        await session.stop();
      }
      return ExitCode.OK;
    } finally {
      await app.close();
      await nutch.close();
    }
  },
};
