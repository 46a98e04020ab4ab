/** Child process for the crash test: fetches a segment, printing one line per page written. */
import { createContext } from '../../core/crawl/context.js';
import { silentLogger } from '../../core/log.js';
import { fetch } from '../../core/crawl/fetch/fetcher.js';

const [segment, confDir, definesJson] = process.argv.slice(2);
const ctx = createContext({ includeBuiltins: true, cwd: confDir, root: confDir, env: { NUTCH_CONF_DIR: confDir }, logger: silentLogger, defines: JSON.parse(definesJson!) });
await fetch(ctx, { segment: segment!, threads: 1 }, { onProgress: (e) => { if (e.type === 'page') process.stdout.write(`page ${e.url}\n`); } });
await ctx.close();
process.stdout.write('done\n');
