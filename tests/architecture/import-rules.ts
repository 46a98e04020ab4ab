/**
 * DESIGN §2's one-way imports, checked over a source tree (the real one, or a fixture): which core
 * layer may import which, that core never imports plugins/ or sdk/, and that a built-in plugin imports
 * only the plugin-author surface (`sdk/plugin.ts`), its own files, and the main module of a library
 * plugin (`"extensions": []`) that its manifest `requires`. Test files (`*.test.ts`) are not checked:
 * they may reach anything they test.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

/**
 * Core layers, lowest first, and what each may import. `core/url` (host, domain, chooseRepr) and the
 * root files errors.ts and log.ts are the base everyone uses. core/protocol holds the protocol helpers
 * plugins get through nutch-ts/plugin (robots rules, address policy, content limits), so it sits with
 * the extension points; core/parse is the parse engine the stages drive (worker pool, parser
 * selection), so it sits with crawl.
 */
const LAYERS = {
  base: ['base'],
  model: ['base', 'model'],
  config: ['base', 'model', 'config'],
  storage: ['base', 'model', 'config', 'storage'],
  plugin: ['base', 'model', 'config', 'plugin'],
  'extension-points': ['base', 'model', 'config', 'plugin', 'extension-points'],
  crawl: ['base', 'model', 'config', 'plugin', 'extension-points', 'storage', 'crawl'],
} as const;
type Layer = keyof typeof LAYERS;

const FOLDER_LAYER: Record<string, Layer> = {
  url: 'base', model: 'model', config: 'config', storage: 'storage', plugin: 'plugin',
  'extension-points': 'extension-points', protocol: 'extension-points', crawl: 'crawl', parse: 'crawl',
};

export interface ImportViolation {
  /** Importing file, relative to the root, with `/`. */
  file: string;
  line: number;
  specifier: string;
  rule: string;
}

/** Every import, export-from and literal dynamic import() of a TypeScript file, with its line. */
export function importsOf(text: string): Array<{ specifier: string; line: number }> {
  const out: Array<{ specifier: string; line: number }> = [];
  const re = /(?:^|[\s;])(?:import|export)\s(?:[^'";]*?\sfrom\s)?\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const specifier = m[1] ?? m[2]!;
    out.push({ specifier, line: text.slice(0, m.index + m[0].length).split('\n').length });
  }
  return out;
}

function sourceFiles(root: string, dir: string, out: string[] = []): string[] {
  const full = join(root, dir);
  if (!existsSync(full)) return out;
  for (const entry of readdirSync(full, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const rel = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(root, rel, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** The area of a root-relative path: a core layer, `sdk`, `plugin:<id>`, or another top folder. */
function areaOf(path: string): string {
  const parts = path.split(sep);
  if (parts[0] === 'core') return parts.length === 2 ? 'core:base' : `core:${FOLDER_LAYER[parts[1]!] ?? `unknown(${parts[1]})`}`;
  if (parts[0] === 'plugins') return `plugin:${parts[1]}`;
  return parts[0]!;
}

interface Manifest {
  requires?: string[];
  extensions?: unknown[];
}

function manifestOf(root: string, id: string): Manifest | null {
  const file = join(root, 'plugins', id, 'plugin.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : null;
}

/** A relative specifier as the root-relative source path it names (`.js` → `.ts`). */
function resolveSpecifier(fromFile: string, specifier: string): string {
  return normalize(join(dirname(fromFile), specifier)).replace(/\.js$/, '.ts');
}

export function checkImports(root: string): ImportViolation[] {
  const violations: ImportViolation[] = [];
  const files = ['core', 'sdk', 'plugins'].flatMap((d) => sourceFiles(root, d));
  for (const file of files) {
    const from = areaOf(file);
    for (const { specifier, line } of importsOf(readFileSync(join(root, file), 'utf8'))) {
      const report = (rule: string) => violations.push({ file: file.split(sep).join('/'), line, specifier, rule });
      if (!specifier.startsWith('.')) {
        if (from.startsWith('plugin:') && /^nutch-ts(?:\/|$)/.test(specifier)) report('a built-in plugin imports core by relative path to sdk/plugin.ts, never by package name');
        continue;
      }
      const target = resolveSpecifier(file, specifier);
      const to = areaOf(target);
      if (from.startsWith('core:')) {
        if (to === 'sdk' || to.startsWith('plugin:')) report(`core never imports ${to === 'sdk' ? 'sdk/' : 'plugins/'}`);
        else if (to.startsWith('core:')) {
          const fromLayer = from.slice(5) as Layer;
          const toLayer = to.slice(5) as Layer;
          if (!(fromLayer in LAYERS)) report(`core folder of no known layer (${fromLayer})`);
          else if (!(LAYERS[fromLayer] as readonly string[]).includes(toLayer)) report(`core layer ${fromLayer} must not import layer ${toLayer}`);
        } else report(`core imports only core (not ${to}/)`);
      } else if (from.startsWith('plugin:')) {
        const id = from.slice(7);
        if (to === from) continue;
        if (target === join('sdk', 'plugin.ts')) continue;
        if (to.startsWith('plugin:')) {
          const lib = to.slice(7);
          const libManifest = manifestOf(root, lib);
          if (target !== join('plugins', lib, 'index.ts')) report(`plugin ${id} imports a file of plugin ${lib}: only a library plugin's main module (../${lib}/index.js)`);
          else if (!libManifest || (libManifest.extensions ?? []).length > 0) report(`plugin ${id} imports plugin ${lib}, which is not a library plugin (one with "extensions": [])`);
          else if (!(manifestOf(root, id)?.requires ?? []).includes(lib)) report(`plugin ${id} imports library plugin ${lib} without "requires": ["${lib}"] in its manifest`);
        } else {
          report(`plugin ${id} imports only the plugin-author surface (sdk/plugin.ts) or a library plugin it requires, not ${target.split(sep).join('/')}`);
        }
      } else if (from === 'sdk') {
        if (to.startsWith('plugin:')) report('sdk never imports a plugin');
        else if (to !== 'sdk' && !to.startsWith('core:')) report(`sdk imports only core and sdk (not ${to}/)`);
      }
    }
  }
  return violations;
}

export function formatViolations(violations: readonly ImportViolation[], root: string): string {
  return violations.map((v) => `${relative(process.cwd(), join(root, v.file))}:${v.line}: import '${v.specifier}': ${v.rule}`).join('\n');
}
