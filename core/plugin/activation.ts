/**
 * Which discovered plugins are active, and why — Nutch's PluginRepository filtering with its known
 * defects fixed: plugin.includes / plugin.excludes match the WHOLE id; required plugins are
 * auto-activated (plugin.auto-activation); a missing dependency or a cycle drops the plugin with a
 * reason instead of failing the crawl; FetchSchedule and Signature providers are always active.
 */
import { createRequire } from 'node:module';
import type semver from 'semver';
import { NutchError } from '../errors.js';
import type { PluginDescriptor } from './plugin-descriptor.js';

export type Activation =
  | { active: true; reason: 'included' }
  | { active: true; reason: 'always'; point: string }
  | { active: true; reason: 'dependency'; of: string[] }
  | { active: true; reason: 'replacement'; of: string[] }
  | { active: false; reason: 'not-included' }
  | { active: false; reason: 'excluded'; pattern: string }
  | { active: false; reason: 'missing-dependency'; dependency: string; detail: string }
  | { active: false; reason: 'cycle'; cycle: string[] }
  | { active: false; reason: 'incompatible-host'; range: string; hostVersion: string };

export interface ActivationInput {
  includes: string;
  excludes: string;
  autoActivation: boolean;
  hostVersion: string;
  /** Plugins activated in place of Nutch plugins nutch-ts lacks (plugin id -> the Nutch ids). */
  replacements?: ReadonlyMap<string, string[]>;
}

/** Points whose providers are core classes in Nutch, hence always active. */
const ALWAYS_ACTIVE_POINTS = ['FetchSchedule', 'Signature'];

export function wholeIdRegex(pattern: string, property: string): RegExp {
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch (err) {
    throw new NutchError('NUTCH_CONFIG_INVALID_VALUE', `Invalid value for property "${property}": regular expression ${JSON.stringify(pattern)} does not compile: ${(err as Error).message}`, { property });
  }
}

export function describeActivation(a: Activation): string {
  switch (a.reason) {
    case 'included': return 'active: matched plugin.includes';
    case 'always': return `active: always (provides ${a.point})`;
    case 'dependency': return `active: auto-activated as a dependency of ${a.of.join(', ')}`;
    case 'replacement': return `active: in place of Nutch's ${a.of.join(', ')} (named by plugin.includes)`;
    case 'not-included': return 'inactive: not matched by plugin.includes';
    case 'excluded': return `inactive: excluded by plugin.excludes pattern ${JSON.stringify(a.pattern)}`;
    case 'missing-dependency': return `inactive: missing dependency ${a.dependency} (${a.detail})`;
    case 'cycle': return `inactive: dependency cycle ${a.cycle.join(' -> ')}`;
    case 'incompatible-host': return `inactive: built for nutch-ts ${a.range}, this is ${a.hostVersion}`;
  }
}

// semver is loaded only for a plugin that states a host range (an npm plugin's peerDependencies on
// nutch-ts), and only the two functions used: the whole package is ~50 modules to load at every start.
const requireFromHere = createRequire(import.meta.url);
function hostVersionOutside(range: string, hostVersion: string): boolean {
  const validRange = requireFromHere('semver/ranges/valid') as typeof semver.validRange;
  const satisfies = requireFromHere('semver/functions/satisfies') as typeof semver.satisfies;
  return validRange(range) !== null && !satisfies(hostVersion, range, { includePrerelease: true });
}

export function resolveActivation(plugins: readonly PluginDescriptor[], input: ActivationInput): Map<string, Activation> {
  const include = wholeIdRegex(input.includes, 'plugin.includes');
  const exclude = input.excludes ? wholeIdRegex(input.excludes, 'plugin.excludes') : null;
  const byId = new Map(plugins.map((p) => [p.id, p]));
  const state = new Map<string, Activation>();

  for (const p of plugins) {
    if (p.hostRange && hostVersionOutside(p.hostRange, input.hostVersion)) {
      state.set(p.id, { active: false, reason: 'incompatible-host', range: p.hostRange, hostVersion: input.hostVersion });
      continue;
    }
    const always = p.extensions.find((e) => ALWAYS_ACTIVE_POINTS.includes(e.point));
    if (always) state.set(p.id, { active: true, reason: 'always', point: always.point });
    else if (p.source === 'object') state.set(p.id, { active: true, reason: 'included' });
    else if (!include.test(p.id)) {
      const of = input.replacements?.get(p.id);
      if (of && !exclude?.test(p.id)) state.set(p.id, { active: true, reason: 'replacement', of: [...of] });
      else state.set(p.id, { active: false, reason: 'not-included' });
    } else if (exclude?.test(p.id)) state.set(p.id, { active: false, reason: 'excluded', pattern: input.excludes });
    else state.set(p.id, { active: true, reason: 'included' });
  }

  // Auto-activation / missing dependencies, to a fixpoint.
  let changed = true;
  while (changed) {
    changed = false;
    for (const p of plugins) {
      const s = state.get(p.id)!;
      if (!s.active) continue;
      for (const dep of p.requires) {
        const d = byId.get(dep);
        const ds = state.get(dep);
        if (!d || !ds) {
          state.set(p.id, { active: false, reason: 'missing-dependency', dependency: dep, detail: 'no such plugin was found' });
          changed = true;
          break;
        }
        if (ds.active) {
          if (ds.reason === 'dependency' && !ds.of.includes(p.id)) ds.of.push(p.id);
          continue;
        }
        const droppable = ds.reason === 'not-included' || ds.reason === 'excluded';
        if (droppable && input.autoActivation) {
          state.set(dep, { active: true, reason: 'dependency', of: [p.id] });
        } else {
          const detail = droppable ? `${describeActivation(ds).replace(/^inactive: /, '')}, and plugin.auto-activation is false` : describeActivation(ds);
          state.set(p.id, { active: false, reason: 'missing-dependency', dependency: dep, detail });
        }
        changed = true;
        break;
      }
    }
  }

  for (const cycle of findCycles(plugins, state)) {
    for (const id of cycle.slice(0, -1)) state.set(id, { active: false, reason: 'cycle', cycle });
  }
  // A plugin whose dependency fell into a cycle is dropped as well.
  changed = true;
  while (changed) {
    changed = false;
    for (const p of plugins) {
      if (!state.get(p.id)!.active) continue;
      const dead = p.requires.find((d) => !state.get(d)?.active);
      if (dead) {
        state.set(p.id, { active: false, reason: 'missing-dependency', dependency: dead, detail: describeActivation(state.get(dead)!) });
        changed = true;
      }
    }
  }
  return state;
}

/**
 * Plugins by id in code-point order: deterministic like localeCompare for the ids plugins have, and
 * it does not start ICU's collator, whose set-up was ~0.01 CPU-s of every command's start.
 */
function compareIds(a: PluginDescriptor, b: PluginDescriptor): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function findCycles(plugins: readonly PluginDescriptor[], state: Map<string, Activation>): string[][] {
  const byId = new Map(plugins.map((p) => [p.id, p]));
  const color = new Map<string, 0 | 1 | 2>();
  const cycles: string[][] = [];
  const stack: string[] = [];
  const visit = (id: string) => {
    color.set(id, 1);
    stack.push(id);
    for (const dep of byId.get(id)?.requires ?? []) {
      if (!state.get(dep)?.active) continue;
      const c = color.get(dep) ?? 0;
      if (c === 1) cycles.push([...stack.slice(stack.indexOf(dep)), dep]);
      else if (c === 0) visit(dep);
    }
    stack.pop();
    color.set(id, 2);
  };
  for (const p of [...plugins].sort(compareIds)) if (state.get(p.id)?.active && !color.get(p.id)) visit(p.id);
  return cycles;
}

/** Active plugins, dependencies before dependants (ties by id): the start order. */
export function startOrder(plugins: readonly PluginDescriptor[], state: Map<string, Activation>): string[] {
  const byId = new Map(plugins.map((p) => [p.id, p]));
  const done = new Set<string>();
  const order: string[] = [];
  const visit = (id: string) => {
    if (done.has(id)) return;
    done.add(id);
    for (const dep of [...(byId.get(id)?.requires ?? [])].sort()) if (state.get(dep)?.active) visit(dep);
    order.push(id);
  };
  for (const p of [...plugins].sort(compareIds)) if (state.get(p.id)?.active) visit(p.id);
  return order;
}
