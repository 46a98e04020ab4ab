/**
 * Compiles the JSON Schemas nutch-ts validates at run time (plugin manifests, index-writers.json) into
 * standalone validator modules with ajv, once, when the schemas change, instead of at every start:
 * compiling them made up most of a CLI command's start-up (ajv's code generator is large and slow to
 * load). The modules need only ajv's small runtime helpers.
 *
 *   npm run schemas                                       # rewrite the modules
 *   npx tsx core/plugin/generate-schema-validators.ts --check   # exit 1 when one is out of date
 *
 * `npm run build` runs it first; tests/plugin/schema-validators.test.ts runs the check.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';

// a CommonJS module whose exports are the function, with a `default` pointing at it too
const standaloneCode = standalone.default;
const root = fileURLToPath(new URL('../..', import.meta.url));

export interface SchemaValidator {
  /** The schema, relative to the repository root. */
  schema: string;
  /** The generated module, relative to the repository root. */
  module: string;
  /** `verbose` puts the schema of the failing keyword in each error (manifest errors list the allowed fields). */
  verbose: boolean;
}

export const schemaValidators: SchemaValidator[] = [
  { schema: 'core/plugin/manifest.schema.json', module: 'core/plugin/manifest-validator.generated.ts', verbose: true },
  { schema: 'core/crawl/index/index-writers.schema.json', module: 'core/crawl/index/index-writers-validator.generated.ts', verbose: false },
];

/** The module text for one schema. */
export function generateValidator(v: SchemaValidator): string {
  const schema = JSON.parse(readFileSync(join(root, v.schema), 'utf8')) as object;
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: v.verbose, code: { source: true, esm: true } });
  const code = standaloneCode(ajv, ajv.compile(schema));
  return [
    `// Generated from ${v.schema} by core/plugin/generate-schema-validators.ts (\`npm run schemas\`); do not edit.`,
    '// ajv standalone code: untyped JavaScript, typed by the module that imports it.',
    '// @ts-nocheck',
    "import { createRequire } from 'node:module';",
    // the generated code loads ajv's runtime helpers (ucs2length for minLength) with require()
    'const require = createRequire(import.meta.url);',
    // an ES module is strict already
    code.replace(/^"use strict";/, ''),
    '',
  ].join('\n');
}

/** The schemas whose module differs from what generateValidator() makes now. */
export function staleValidators(): SchemaValidator[] {
  return schemaValidators.filter((v) => {
    let current = '';
    try {
      current = readFileSync(join(root, v.module), 'utf8');
    } catch {
      // a missing module is stale
    }
    return current !== generateValidator(v);
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--check')) {
    const stale = staleValidators();
    for (const v of stale) console.error(`${v.module} is out of date with ${v.schema}: run npm run schemas`);
    process.exit(stale.length ? 1 : 0);
  }
  for (const v of schemaValidators) writeFileSync(join(root, v.module), generateValidator(v));
}
