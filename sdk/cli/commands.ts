/** The command table: Nutch's command names. Each command lives in its own file under commands/. */
import type { Command } from './command.js';
import { fetchCommand } from './commands/fetch.js';
import { robotsParserCommand } from './commands/robotsparser.js';
import { injectCommand } from './commands/inject.js';
import { generateCommand } from './commands/generate.js';
import { readdbCommand } from './commands/readdb.js';
import { pluginCommand } from './commands/plugin.js';
import { showPropertiesCommand } from './commands/showproperties.js';
import { filterCheckerCommand } from './commands/filterchecker.js';
import { normalizerCheckerCommand } from './commands/normalizerchecker.js';
import { parseCommand } from './commands/parse.js';
import { parseCheckerCommand } from './commands/parsechecker.js';
import { indexCommand } from './commands/index.js';
import { cleanCommand } from './commands/clean.js';
import { searchCommand } from './commands/search.js';
import { indexCheckerCommand } from './commands/indexchecker.js';
import { updatedbCommand } from './commands/updatedb.js';
import { invertlinksCommand } from './commands/invertlinks.js';
import { dedupCommand } from './commands/dedup.js';
import { readlinkdbCommand } from './commands/readlinkdb.js';
import { crawlCommand } from './commands/crawl.js';
import { readsegCommand } from './commands/readseg.js';
import { warcCommand } from './commands/warc.js';
import { mergedbCommand } from './commands/mergedb.js';
import { mergesegsCommand } from './commands/mergesegs.js';
import { mergelinkdbCommand } from './commands/mergelinkdb.js';
import { freegenCommand } from './commands/freegen.js';
import { sitemapCommand } from './commands/sitemap.js';
import { domainstatsCommand } from './commands/domainstats.js';
import { protocolstatsCommand } from './commands/protocolstats.js';
import { crawlcompleteCommand } from './commands/crawlcomplete.js';
import { dumpCommand } from './commands/dump.js';
import { convertConfCommand } from './commands/convert-conf.js';
import { workerCommand } from './commands/worker.js';
import { updatehostdbCommand } from './commands/updatehostdb.js';
import { readhostdbCommand } from './commands/readhostdb.js';
import { serverCommand } from './commands/server.js';

export const commands: Command[] = [
  injectCommand,
  generateCommand,
  readdbCommand,
  pluginCommand,
  showPropertiesCommand,
  filterCheckerCommand,
  normalizerCheckerCommand,
  parseCommand,
  parseCheckerCommand,
  indexCommand,
  cleanCommand,
  searchCommand,
  indexCheckerCommand,
  fetchCommand,
  robotsParserCommand,
  updatedbCommand,
  invertlinksCommand,
  dedupCommand,
  readlinkdbCommand,
  crawlCommand,
  readsegCommand,
  warcCommand,
  mergedbCommand,
  mergesegsCommand,
  mergelinkdbCommand,
  freegenCommand,
  sitemapCommand,
  domainstatsCommand,
  protocolstatsCommand,
  crawlcompleteCommand,
  dumpCommand,
  convertConfCommand,
  workerCommand,
  updatehostdbCommand,
  readhostdbCommand,
  serverCommand,
];
