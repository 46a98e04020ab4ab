/**
 * indexer-opensearch's parameters from index-writers.json (or Nutch's index-writers.xml), with Nutch's
 * OpenSearch1xIndexWriter names and defaults: host (required, comma-separated), port, scheme, index,
 * username/password, trust.store.path, max.bulk.docs, max.bulk.size, exponential.backoff.millis,
 * exponential.backoff.retries, bulk.close.timeout. Every bad value is an error naming the writer.
 */
import { readFileSync } from 'node:fs';
import { NutchError } from '../../sdk/plugin.js';

export interface OpenSearchParams {
  nodes: string[];
  index: string;
  username: string;
  password: string;
  /** PEM CA certificates that sign the nodes' certificates (https). */
  ca: string | null;
  maxBulkDocs: number;
  maxBulkBytes: number;
  backoffMillis: number;
  backoffRetries: number;
  /** Seconds the final flush may take (bulk.close.timeout). */
  closeTimeout: number;
}

export function parseOpenSearchParams(writerId: string, p: Record<string, string>): OpenSearchParams {
  const invalid = (message: string) => new NutchError('NUTCH_INDEX_WRITERS_INVALID', `indexer-opensearch writer ${writerId}: ${message}`, { writer: writerId });
  const num = (name: string, fallback: number, min = 0): number => {
    const raw = p[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw invalid(`parameter "${name}" must be an integer >= ${min}, got "${raw}".`);
    return n;
  };
  const hosts = (p.host ?? '').split(',').map((h) => h.trim()).filter(Boolean);
  if (!hosts.length) throw invalid('parameter "host" is missing: name the OpenSearch node(s), comma-separated, in index-writers.json.');
  const scheme = p.scheme ?? 'https';
  if (scheme !== 'http' && scheme !== 'https') throw invalid(`parameter "scheme" must be http or https, got "${scheme}".`);
  const port = num('port', 9200, 1);
  const index = p.index ?? 'nutch';
  if (!/^[^A-Z\\/*?"<>| ,#_\-+][^A-Z\\/*?"<>| ,#]*$/.test(index)) throw invalid(`"${index}" is not a valid index name (lower case, not starting with _ - +, none of \\ / * ? " < > | space , #).`);
  let ca: string | null = null;
  const trustStore = p['trust.store.path'];
  if (trustStore) {
    try {
      ca = readFileSync(trustStore, 'utf8');
    } catch (err) {
      throw invalid(`cannot read trust.store.path "${trustStore}": ${(err as Error).message}`);
    }
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw invalid(`trust.store.path "${trustStore}" is not PEM: Java key stores (JKS, PKCS12) are not read; export the CA certificate as PEM (keytool -exportcert -rfc).`);
  }
  return {
    nodes: hosts.map((h) => `${scheme}://${h.includes(':') && !h.startsWith('[') ? `[${h}]` : h}:${port}`),
    index,
    username: p.username ?? 'admin',
    password: p.password ?? 'admin',
    ca,
    maxBulkDocs: num('max.bulk.docs', 250, 1),
    maxBulkBytes: num('max.bulk.size', 2_500_500, 1),
    backoffMillis: num('exponential.backoff.millis', 100),
    backoffRetries: num('exponential.backoff.retries', 10),
    closeTimeout: num('bulk.close.timeout', 600, 1),
  };
}
