/**
 * The command table the `nutch` binary starts from: each command's name and summary (all that
 * `nutch --help` prints) and how to load it. A command's module, and the engine behind it, is imported
 * only when that command runs, so `nutch --help` or `nutch search` do not pay for loading every stage.
 * tests/cli/command-table.test.ts keeps this table equal to commands.ts.
 */
import type { Command } from './command.js';

export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

export const commandTable: CommandEntry[] = [
  { name: 'inject', summary: 'inject new urls into the database', load: () => import('./commands/inject.js').then((m) => m.injectCommand) },
  { name: 'generate', summary: 'generate new segments to fetch from crawl db', load: () => import('./commands/generate.js').then((m) => m.generateCommand) },
  { name: 'readdb', summary: 'read / dump crawl db', load: () => import('./commands/readdb.js').then((m) => m.readdbCommand) },
  { name: 'plugin', summary: 'list discovered plugins and the effective extension chains, or show one plugin', load: () => import('./commands/plugin.js').then((m) => m.pluginCommand) },
  { name: 'showproperties', summary: 'print every property with its value and where it came from', load: () => import('./commands/showproperties.js').then((m) => m.showPropertiesCommand) },
  { name: 'filterchecker', summary: 'check URLs against the URL filter chain (or one filter)', load: () => import('./commands/filterchecker.js').then((m) => m.filterCheckerCommand) },
  { name: 'normalizerchecker', summary: 'check URLs against the URL normalizer chain of a scope (or one normalizer)', load: () => import('./commands/normalizerchecker.js').then((m) => m.normalizerCheckerCommand) },
  { name: 'parse', summary: "parse a segment's pages", load: () => import('./commands/parse.js').then((m) => m.parseCommand) },
  { name: 'parsechecker', summary: 'fetch and parse one URL, print what the parsers made of it', load: () => import('./commands/parsechecker.js').then((m) => m.parseCheckerCommand) },
  { name: 'index', summary: 'send the documents of segments to the configured index writers', load: () => import('./commands/index.js').then((m) => m.indexCommand) },
  { name: 'clean', summary: 'delete gone and duplicate pages from the index', load: () => import('./commands/clean.js').then((m) => m.cleanCommand) },
  { name: 'search', summary: 'search the embedded index of a crawl directory', load: () => import('./commands/search.js').then((m) => m.searchCommand) },
  { name: 'indexchecker', summary: 'fetch, parse and run the indexing filters on one URL, print the document', load: () => import('./commands/indexchecker.js').then((m) => m.indexCheckerCommand) },
  { name: 'fetch', summary: 'fetch a segment (Fetcher)', load: () => import('./commands/fetch.js').then((m) => m.fetchCommand) },
  { name: 'robotsparser', summary: 'check URLs against a robots.txt (RobotRulesParser)', load: () => import('./commands/robotsparser.js').then((m) => m.robotsParserCommand) },
  { name: 'updatedb', summary: 'update crawldb from segments after fetching', load: () => import('./commands/updatedb.js').then((m) => m.updatedbCommand) },
  { name: 'invertlinks', summary: 'create a linkdb from parsed segments', load: () => import('./commands/invertlinks.js').then((m) => m.invertlinksCommand) },
  { name: 'dedup', summary: 'deduplicate entries in the crawldb and give them a special status', load: () => import('./commands/dedup.js').then((m) => m.dedupCommand) },
  { name: 'readlinkdb', summary: 'read / dump link db', load: () => import('./commands/readlinkdb.js').then((m) => m.readlinkdbCommand) },
  { name: 'crawl', summary: 'run the whole crawl cycle for a number of rounds (bin/crawl)', load: () => import('./commands/crawl.js').then((m) => m.crawlCommand) },
  { name: 'readseg', summary: 'read / dump segment data', load: () => import('./commands/readseg.js').then((m) => m.readsegCommand) },
  { name: 'warc', summary: 'export content in a segment to WARC format', load: () => import('./commands/warc.js').then((m) => m.warcCommand) },
  { name: 'mergedb', summary: 'merge crawldb-s, with optional filtering', load: () => import('./commands/mergedb.js').then((m) => m.mergedbCommand) },
  { name: 'mergesegs', summary: 'merge several segments, with optional filtering and slicing', load: () => import('./commands/mergesegs.js').then((m) => m.mergesegsCommand) },
  { name: 'mergelinkdb', summary: 'merge linkdb-s, with optional filtering', load: () => import('./commands/mergelinkdb.js').then((m) => m.mergelinkdbCommand) },
  { name: 'freegen', summary: 'generate new segments to fetch from text files', load: () => import('./commands/freegen.js').then((m) => m.freegenCommand) },
  { name: 'sitemap', summary: 'perform Sitemap processing', load: () => import('./commands/sitemap.js').then((m) => m.sitemapCommand) },
  { name: 'domainstats', summary: 'calculate domain statistics from crawldb', load: () => import('./commands/domainstats.js').then((m) => m.domainstatsCommand) },
  { name: 'protocolstats', summary: 'calculate protocol status code stats from crawldb', load: () => import('./commands/protocolstats.js').then((m) => m.protocolstatsCommand) },
  { name: 'crawlcomplete', summary: 'calculate crawl completion stats from crawldb', load: () => import('./commands/crawlcomplete.js').then((m) => m.crawlcompleteCommand) },
  { name: 'dump', summary: 'exports crawled data from segments into files', load: () => import('./commands/dump.js').then((m) => m.dumpCommand) },
  { name: 'convert-conf', summary: "convert an Apache Nutch conf/ directory (XML) to nutch-ts's JSON forms", load: () => import('./commands/convert-conf.js').then((m) => m.convertConfCommand) },
  { name: 'worker', summary: 'fetch partitions of generated segments until stopped (scale-out)', load: () => import('./commands/worker.js').then((m) => m.workerCommand) },
  { name: 'updatehostdb', summary: 'update the host db with records from the crawl db', load: () => import('./commands/updatehostdb.js').then((m) => m.updatehostdbCommand) },
  { name: 'readhostdb', summary: 'read / dump host db', load: () => import('./commands/readhostdb.js').then((m) => m.readhostdbCommand) },
  { name: 'server', summary: 'serve the crawl dashboard and its JSON API (start/stop a crawl, live progress, stats, search)', load: () => import('./commands/server.js').then((m) => m.serverCommand) },
];
