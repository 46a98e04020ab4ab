/**
 * One build, code splitting (one shared core chunk): the public subpaths, the CLI, and one entry per
 * built-in plugin found from plugins/*\/plugin.json; plugin.json is copied beside each plugin's index.js.
 * Declarations only for the public subpaths.
 */
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'tsup';

const pluginIds = readdirSync('plugins', { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join('plugins', d.name, 'plugin.json')))
  .map((d) => d.name);

const entry: Record<string, string> = {
  'sdk/index': 'sdk/index.ts',
  'sdk/plugin': 'sdk/plugin.ts',
  'sdk/testing': 'sdk/testing.ts',
  'sdk/cli/main': 'sdk/cli/main.ts',
};
for (const id of pluginIds) entry[`plugins/${id}/index`] = `plugins/${id}/index.ts`;
for (const extra of ['core/parse/parse-worker.ts']) if (existsSync(extra)) entry[extra.replace(/\.ts$/, '')] = extra;

export default defineConfig({
  entry,
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  sourcemap: false,
  clean: true,
  outDir: 'dist',
  dts: {
    entry: { 'sdk/index': 'sdk/index.ts', 'sdk/plugin': 'sdk/plugin.ts', 'sdk/testing': 'sdk/testing.ts' },
    // The declarations name Node's types (AbortSignal, NodeJS.ProcessEnv); an app whose tsconfig has
    // "types": [] (tsc --init's default) must still find them. @types/node is a dependency for this.
    banner: '/// <reference types="node" />',
  },
  external: ['better-sqlite3'],
  // Bundled rather than loaded from node_modules at run time: Node resolves, reads and compiles each of
  // their files (tsyringe ~40 CommonJS files; htmlparser2 and its dom packages ~30), and lexes a
  // CommonJS entry for its export names, which cost 0.05-0.1 CPU-s each at every start. As chunks of
  // this build they load in ~0.01-0.03 s. (tldts, undici, pg and the SQLite driver are required on
  // first use instead, through core/lazy-module.ts.)
  noExternal: ['tsyringe', 'reflect-metadata', 'tslib', 'htmlparser2', 'domhandler'],
  banner: ({ format }) => (format === 'esm' ? { js: '' } : {}),
  onSuccess: async () => {
    // nutch server's page and script are served as files (sdk/server/dashboard-assets.ts)
    cpSync(join('sdk', 'server', 'dashboard'), join('dist', 'dashboard'), { recursive: true });
    for (const id of pluginIds) {
      cpSync(join('plugins', id, 'plugin.json'), join('dist', 'plugins', id, 'plugin.json'));
      for (const f of readdirSync(join('plugins', id))) {
        if (!/\.(ts|json)$/.test(f) || f === 'plugin.json') cpSync(join('plugins', id, f), join('dist', 'plugins', id, f), { recursive: true });
      }
    }
  },
});
