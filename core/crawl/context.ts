/**
 * NutchContext: what every stage receives — configuration, plugins, the extension chains, the log,
 * the storage engine — and what it owns: the resources created on demand (the parse pool) and the
 * stages running on it. Built the same way by the CLI and by createNutch(), one per crawler; never
 * shared. close() (or `await using`) stops the running stages politely and waits for them, then
 * closes what it owns in reverse: the parse pool, the plugins (reverse start order), the engine it opened.
 */
import { NutchError } from '../errors.js';
import { createDefaultLogger, type Logger, type LogLevel } from '../log.js';
import { loadConfiguration, type LoadConfigurationOptions } from '../config/load-configuration.js';
import { packageVersion } from '../config/package-root.js';
import type { Configuration } from '../config/configuration.js';
import { PluginRepository } from '../plugin/plugin-repository.js';
import type { PluginObject } from '../extension-points/typed-plugin.js';
import { ExtensionChains } from '../extension-points/extension-chains.js';
import type { StorageEngine } from '../storage/interfaces.js';
import { openStorageEngine } from '../storage/open-storage.js';
import { OwnedResources } from './owned-resources.js';
import { StageActivity } from './stage-activity.js';

export interface NutchContext extends AsyncDisposable {
  conf: Configuration;
  plugins: PluginRepository;
  extensions: ExtensionChains;
  log: Logger;
  /**
   * The least level worth producing for `log`: parse workers drop what is below it before it crosses
   * threads. 'debug' when the embedder passed its own logger (that logger filters).
   */
  logLevel: LogLevel;
  /** Opens the CrawlDb, LinkDb and segments (chosen by storage.url unless an engine was passed). */
  storage: StorageEngine;
  /** Resources created on first use and closed with the context (the parse pool). */
  owned: OwnedResources;
  /** The stages running on the context, which close() stops politely and waits for. */
  activity: StageActivity;
  /** Stops running stages politely, then releases what the context owns, in reverse. Idempotent. */
  close(): Promise<void>;
}

export interface CreateContextOptions extends LoadConfigurationOptions {
  /** Where the app's package.json is looked up; default the working directory. */
  root?: string;
  plugins?: PluginObject[];
  pluginFolders?: string[];
  /** Default: warnings and errors on stderr (NUTCH_LOG_LEVEL changes the level); silentLogger for none. */
  logger?: Logger;
  /** The level `logger` was made with (default: 'debug' with a logger given, else the default logger's). */
  logLevel?: LogLevel;
  includeBuiltins?: boolean;
  /** A storage engine to use instead of the embedded SQLite one (not closed by the context). */
  storage?: StorageEngine;
}

export function createContext(opts: CreateContextOptions = {}): NutchContext {
  const env = opts.env ?? process.env;
  const defaultLog = opts.logger ? null : createDefaultLogger(env.NUTCH_LOG_LEVEL);
  const log = opts.logger ?? defaultLog!.log;
  const logLevel = opts.logLevel ?? (defaultLog ? defaultLog.level : 'debug');
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
  const owned = new OwnedResources();
  const activity = new StageActivity();
  let closing: Promise<void> | null = null;
  const close = () => (closing ??= (async () => {
    await activity.stopAll();
    try {
      await owned.closeAll();
    } finally {
      try {
        await plugins.close();
      } finally {
        if (ownsStorage) await storage.close();
      }
    }
  })());
  return { conf, plugins, extensions, log, logLevel, storage, owned, activity, close, [Symbol.asyncDispose]: close };
}

/**
 * The same context seen through another Configuration (a crawl's own layered values): everything it
 * owns is shared, so closing either closes both.
 */
export function withConfiguration(ctx: NutchContext, conf: Configuration): NutchContext {
  return { ...ctx, conf };
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
