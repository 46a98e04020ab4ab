/**
 * The error catalogue: every error nutch-ts raises carries one of these codes. Messages name the
 * culprit (file and JSON pointer, property, plugin, URL) and say what to do. docs/errors.md lists
 * every code; tests/errors.test.ts keeps the two in sync.
 */
export const ErrorCodes = {
  NUTCH_CONFIG_INVALID_JSON: 'A configuration file is not valid JSON.',
  NUTCH_CONFIG_INVALID_XML: "A Nutch XML configuration file (nutch-site.xml, nutch-default.xml, parse-plugins.xml, index-writers.xml) is malformed XML or not in Nutch's format; the message names the file and line.",
  NUTCH_CONFIG_INVALID_VALUE: 'A property has a value of the wrong type, out of range, or a regex that does not compile.',
  NUTCH_CONFIG_UNKNOWN_PROPERTY: 'A property read by code is declared nowhere (neither nutch-default.json nor a plugin manifest).',
  NUTCH_CONFIG_FILE_NOT_FOUND: 'A file named by a property (rule file, parse-plugins.json, …) was not found in the configuration directories.',
  NUTCH_CONFIG_BAD_DEFINE: 'A -D option is not of the form key=value.',
  NUTCH_CONFIG_MISSING_AGENT: 'http.agent.name is not set; nothing may be fetched until it is.',
  NUTCH_MANIFEST_INVALID_JSON: 'A plugin.json or package.json is not valid JSON.',
  NUTCH_MANIFEST_INVALID: 'A plugin manifest violates the manifest schema.',
  NUTCH_MANIFEST_MAIN_OUTSIDE_ROOT: "A plugin's main module resolves outside the plugin's folder.",
  NUTCH_PLUGIN_DUPLICATE_ID: 'Two plugins declare the same id.',
  NUTCH_PLUGIN_DUPLICATE_EXTENSION: 'Two extensions declare the same extension id.',
  NUTCH_PLUGIN_MISSING_DEPENDENCY: 'A plugin requires a plugin that is not available or not active.',
  NUTCH_PLUGIN_DEPENDENCY_CYCLE: 'Plugins require each other in a cycle.',
  NUTCH_PLUGIN_UNKNOWN_POINT: 'An extension names an extension point nobody declares.',
  NUTCH_PLUGIN_POINT_MISMATCH: "A definePlugin() entry names a different extension point than the manifest's extension it implements.",
  NUTCH_PLUGIN_INCOMPATIBLE_HOST: "A plugin package's peerDependencies range on nutch-ts excludes this version.",
  NUTCH_PLUGIN_MODULE_NOT_FOUND: "A plugin's main module cannot be imported.",
  NUTCH_PLUGIN_EXPORT_NOT_FOUND: "A plugin's main module does not export the named implementation.",
  NUTCH_PLUGIN_BAD_IMPLEMENTATION: 'An implementation export is not a class or factory, or its instance lacks the methods of its extension point.',
  NUTCH_PLUGIN_START_FAILED: "A plugin's start() threw; the stage did not start.",
  NUTCH_PLUGIN_STOP_FAILED: "A plugin's stop() threw while the crawler closed.",
  NUTCH_PLUGIN_NOT_FOUND: 'A plugin id named on the command line or in the SDK does not exist.',
  NUTCH_PLUGIN_OBJECT_NOT_ALLOWED: 'A plugin passed as an object extends a point that runs in parse workers (Parser, HtmlParseFilter, Signature).',
  NUTCH_EXTENSION_NOT_FOUND: 'An extension id (in an order list, a *.class property or a checker option) matches no active extension.',
  NUTCH_EXTENSION_FAILED: 'An extension threw; the error is tagged with plugin, extension point and URL.',
  NUTCH_BROWSER_UNAVAILABLE: 'protocol-playwright cannot render: no browser at playwright.executable.path, playwright-core is not installed, or Chromium would not start.',
  NUTCH_PROTOCOL_NOT_FOUND: 'No Protocol extension handles the URL scheme.',
  NUTCH_PARSER_NOT_FOUND: 'No Parser extension handles the content type.',
  NUTCH_PARSE_PLUGINS_INVALID: 'parse-plugins.json (parse.plugin.file) is not the expected shape: mimeTypes of content type to extension ids, optional aliases.',
  NUTCH_PARSE_DOCUMENT_FAILED: 'A document (PDF, Office, OpenDocument, EPUB, RTF, XML) is encrypted, truncated, corrupt or bomb-like; its parse failed with the reason.',
  NUTCH_PARSE_WORKER_FAILED: 'A parse worker thread could not start (its plugins failed to load or start); the parse did not run.',
  NUTCH_ADDRESS_DENIED: 'A connection was refused by the address policy (http.address.deny): the URL resolves to a denied IP address.',
  NUTCH_LEASE_LOST: 'A fetch worker lost its claim on a partition (its lease expired and another worker took it over); its late writes were refused.',
  NUTCH_HOSTDB_EXPRESSION_INVALID: 'A host expression (readhostdb -expr, generate.max.count.expr, generate.fetch.delay.expr) does not parse; the message names the property or option and the position.',
  NUTCH_SEGMENT_ALREADY_FETCHED: 'The segment already holds a complete crawl_fetch; generate a new segment.',
  NUTCH_SEGMENT_NOT_GENERATED: 'The segment has no crawl_generate to fetch.',
  NUTCH_SEGMENT_ALREADY_PARSED: 'The segment already holds parse output; parse it again only with -force.',
  NUTCH_CLOSED: 'The crawler was used after close().',
  NUTCH_SERVER_UNAUTHORIZED: 'nutch server is bound beyond loopback and an /api request lacked its token.',
  NUTCH_SERVER_BAD_REQUEST: "A nutch server API request's body or query string does not match the route's schema.",
  NUTCH_SERVER_CRAWL_RUNNING: 'POST /api/crawl while the server runs a crawl already.',
  NUTCH_SERVER_NO_CRAWL: 'POST /api/crawl/stop while no crawl is running.',
  NUTCH_SERVER_ERROR: 'nutch server failed to answer a request (the message says why).',
  NUTCH_USAGE: 'A command line is malformed.',
  NUTCH_STORAGE_LOCKED: 'A CrawlDb or LinkDb is locked (.locked, or a PostgreSQL advisory lock) by another writer that is still alive.',
  NUTCH_STORAGE_CORRUPT: 'A store file is not a readable nutch-ts database; it is left untouched.',
  NUTCH_STORAGE_NOT_FOUND: 'A CrawlDb, LinkDb, HostDb or segment named on the command line or in the SDK does not exist.',
  NUTCH_STORAGE_NOT_A_DIRECTORY: 'A crawl directory, CrawlDb, LinkDb, segments path or segment (or a folder above it) is a regular file where a directory is expected.',
  NUTCH_STORAGE_WRITE_FAILED: 'A stage could not write to a store (disk full, I/O error, a value the engine refuses); it stopped, and what it committed before is kept.',
  NUTCH_STORAGE_EXISTS: 'A segment with the same name already exists.',
  NUTCH_STORAGE_UNREACHABLE: 'The database named by storage.url cannot be reached (refused, unknown host, timeout, no such database).',
  NUTCH_STORAGE_AUTH_FAILED: 'The database named by storage.url refused the user or password.',
  NUTCH_STORAGE_CONNECTION_LOST: 'The connection to the storage database broke during a stage; what was committed before is intact.',
  NUTCH_STORAGE_SCHEMA_NEWER: 'The storage database holds a schema of a newer version than this nutch-ts knows.',
  NUTCH_INJECT_NO_SEEDS: 'The seed path given to inject does not exist or holds no seed file.',
  NUTCH_INDEX_WRITERS_INVALID: 'index-writers.json / index-writers.xml (indexer.indexwriters.file) is not the expected shape, names an extension no plugin declares, or has no writer whose plugin is active.',
  NUTCH_INDEX_WRITER_FAILED: 'An IndexWriter failed while the index stage ran; the error names the writer and the documents not written.',
  NUTCH_INDEX_NO_SEARCHER: 'No configured IndexWriter implements search() and there is no embedded index to fall back on.',
  NUTCH_INDEX_NOT_FOUND: 'The embedded index (<crawl>/index) does not exist yet; run nutch index first.',
  NUTCH_RULE_FILE_INVALID: 'A rule file (regex-normalize.xml, regex-urlfilter.txt, …) or rule property has a syntax error or a regular expression that cannot be used; the message names the file and line.',
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

export interface NutchErrorDetails {
  plugin?: string;
  point?: string;
  extension?: string;
  url?: string;
  file?: string;
  pointer?: string;
  property?: string;
  [key: string]: unknown;
}

/** An Error with a catalogue code. Callers test `err.code`, never instanceof (errors cross package copies). */
export class NutchError extends Error {
  readonly code: ErrorCode;
  readonly details: NutchErrorDetails;

  constructor(code: ErrorCode, message: string, details: NutchErrorDetails = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NutchError';
    this.code = code;
    this.details = details;
  }
}

export function isNutchError(err: unknown, code?: ErrorCode): err is NutchError {
  return (
    typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string' &&
    (err as { code: string }).code.startsWith('NUTCH_') && (code === undefined || (err as { code: string }).code === code)
  );
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
