/**
 * NutchContext: what every stage receives — configuration, plugins, the extension chains, the log.
 * Built the same way by the CLI and by createNutch(), one per crawler; never shared.
 */
import { NutchError } from '../errors.js';
import { createDefaultLogger, type Logger } from '../log.js';
import { loadConfiguration, type LoadConfigurationOptions } from '../config/load-configuration.js';
import { packageVersion } from '../config/package-root.js';
import type { Configuration } from '../config/configuration.js';
import { PluginRepository } from '../plugin/plugin-repository.js';
import type { PluginObject } from '../extension-points/typed-plugin.js';
import { ExtensionChains } from '../extension-points/extension-chains.js';
import type { StorageEngine } from '../storage/interfaces.js';
import { openStorageEngine } from '../storage/open-storage.js';

export interface NutchContext {
  conf: Configuration;
  plugins: PluginRepository;
  extensions: ExtensionChains;
  log: Logger;
  /** Opens the CrawlDb, LinkDb and segments (chosen by storage.url unless an engine was passed). */
  storage: StorageEngine;
  /** Releases what the context owns: plugins in reverse start order, then the engine it opened. */
  close(): Promise<void>;
}

export interface CreateContextOptions extends LoadConfigurationOptions {
  /** Where the app's package.json is looked up; default the working directory. */
  root?: string;
  plugins?: PluginObject[];
  pluginFolders?: string[];
  /** Default: warnings and errors on stderr (NUTCH_LOG_LEVEL changes the level); silentLogger for none. */
  logger?: Logger;
  includeBuiltins?: boolean;
  /** A storage engine to use instead of the embedded SQLite one (not closed by the context). */
  storage?: StorageEngine;
}

export function createContext(opts: CreateContextOptions = {}): NutchContext {
  const log = opts.logger ?? createDefaultLogger();
  const conf = loadConfiguration({ ...opts, warn: opts.warn ?? ((message) => log.warn(message)) });
  const plugins = new PluginRepository({
    conf,
    log,
    appRoot: opts.root ?? opts.cwd ?? process.cwd(),
    hostVersion: packageVersion(),
    plugins: opts.plugins,
    pluginFolders: opts.pluginFolders,
    includeBuiltins: opts.includeBuiltins,
  });
  for (const w of conf.validate()) log.warn(w.message, { property: w.property });
  const extensions = new ExtensionChains(plugins, conf, log);
  const ownsStorage = !opts.storage;
  const storage = opts.storage ?? openStorageEngine(conf, log, { cwd: opts.cwd });
  const close = async () => {
    try {
      await plugins.close();
    } finally {
      if (ownsStorage) await storage.close();
    }
  };
  return { conf, plugins, extensions, log, storage, close };
}

/** Nutch refuses to fetch without an agent name; so does nutch-ts (same message). */
export function checkAgentName(conf: Configuration): void {
  if (!conf.getString('http.agent.name').trim()) {
    throw new NutchError(
      'NUTCH_CONFIG_MISSING_AGENT',
      'No agents listed in \'http.agent.name\' property. Set it in nutch-site.json (e.g. {"http.agent.name": "mybot"}) or with -D http.agent.name=mybot.',
      { property: 'http.agent.name' },
    );
  }
}
