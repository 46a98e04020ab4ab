/**
 * The parse worker entry: builds its own PluginRepository and chains from the configuration snapshot
 * and the active plugins' descriptors (as the main thread read their manifests), starts the Parser,
 * HtmlParseFilter and Signature plugins (their start() runs here, stop() at close), then parses one
 * Content at a time for the pool.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Configuration } from '../config/configuration.js';
import { packageRoot, packageVersion } from '../config/package-root.js';
import type { Logger } from '../log.js';
import { PluginRepository } from '../plugin/plugin-repository.js';
import { ExtensionChains } from '../extension-points/extension-chains.js';
import { ParseUtil } from './parse-util.js';
import { existingGc, exposeGc } from '../crawl/crawl/collect-garbage.js';
import { RETIRE_BUFFER_BYTES, serializeError, type FromWorker, type ToWorker, type WorkerInit } from './worker-protocol.js';

const port = parentPort!;
const post = (m: FromWorker, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer ?? []);

const RANK: Record<string, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

function workerLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  const min = RANK[level] ?? 20;
  const emit = (lvl: 'debug' | 'info' | 'warn' | 'error') => (msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl]! >= min) post({ type: 'log', level: lvl, msg, fields: { ...bindings, ...fields } });
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error'), child: (b) => workerLogger(level, { ...bindings, ...b }) };
}

async function main(): Promise<void> {
  const init = workerData as WorkerInit;
  const log = workerLogger(init.logLevel, { thread: 'parse-worker' });
  let repo: PluginRepository;
  let util: ParseUtil;
  try {
    const conf = Configuration.fromSnapshot(init.conf);
    repo = new PluginRepository({ conf, log, appRoot: packageRoot(), hostVersion: packageVersion(), descriptors: init.plugins, reportIncludes: false });
    util = await ParseUtil.create(new ExtensionChains(repo, conf, log), conf, log);
  } catch (err) {
    post({ type: 'init-error', error: serializeError(err) });
    return;
  }
  let retired = false;
  const handle = async (m: ToWorker): Promise<void> => {
    if (m.type === 'collect-garbage') {
      // Only the crawl loop sends this, and only when its host allows collections (the CLI owns its
      // process; an embedding app runs with --expose-gc, which workers inherit).
      const gc = existingGc() ?? exposeGc();
      gc?.();
      post({ type: 'garbage-collected', collected: !!gc });
      return;
    }
    if (m.type === 'close') {
      await repo.close();
      post({ type: 'closed' });
      port.close();
      return;
    }
    if (retired) return; // the pool resends what it had queued here to another worker
    let answer: Extract<FromWorker, { type: 'result' | 'error' }>;
    try {
      const out = await util.parse(m.content, m.forceAs);
      answer = { type: 'result', id: m.id, result: out.result, signature: out.signature, parser: out.parser };
    } catch (err) {
      answer = { type: 'error', id: m.id, error: serializeError(err) };
    }
    const lent = m.lent && m.content.content.byteLength > 0 ? m.content.content : undefined;
    const bufferBytes = process.memoryUsage().arrayBuffers - (lent?.byteLength ?? 0);
    if (bufferBytes > RETIRE_BUFFER_BYTES) {
      retired = true;
      answer.retireBufferBytes = bufferBytes;
    }
    if (lent) answer.lentBytes = lent;
    post(answer, lent ? [lent.buffer as ArrayBuffer] : undefined);
  };
  // The pool sends the next page before this one is answered: one at a time, in order.
  let inbox = Promise.resolve();
  port.on('message', (m: ToWorker) => {
    inbox = inbox.then(() => handle(m));
  });
  post({ type: 'ready' });
}

void main();
