// Checks (and, as root, installs) what the real-web bench needs: nginx-light, wget, httrack, GNU time
// and the documentation packages of bench/realweb/sites.mjs. `node --import tsx bench/realweb/setup.ts` exits 0
// when everything is there; `--check` never installs. Before installing, it simulates the install
// (apt-get install -s) and refuses any plan that would remove or upgrade an installed package or pull
// in Debian's nodejs (which would replace the Node that runs nutch-ts); a doc package whose newest
// version would upgrade something (postgresql-doc-15 drags postgresql-15 along) is pinned to the
// newest version that installs alone.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { SITES, TOOLS } from './sites.js';
import type { Site } from './sites.js';

const sh = (cmd: string, args: string[], env: Record<string, string> = {}) => spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env } });

export function installed(pkg: string): boolean {
  const r = sh('dpkg-query', ['-W', '-f=${Status}', pkg]);
  return r.status === 0 && r.stdout.includes('install ok installed');
}

/** The package each site uses (first installed alternative), or null with the alternatives when none is. */
export function sitePackage(site: Site): string | null {
  return site.packages.find(installed) ?? null;
}

export function missing(): (string | string[])[] {
  const out: (string | string[])[] = [];
  for (const t of TOOLS) if (!existsSync(t.bin)) out.push(t.pkg);
  for (const s of SITES) if (!sitePackage(s)) out.push(s.packages);
  return out;
}

/** Problems of an `apt-get install -s` plan: upgrades, removals, Debian's nodejs. */
function planProblems(specs: string[]): string[] {
  const r = sh('apt-get', ['install', '-s', '--no-install-recommends', ...specs], { LC_ALL: 'C' });
  if (r.status !== 0) return [`apt-get install -s ${specs.join(' ')} failed: ${(r.stderr || r.stdout).trim().split('\n').pop()}`];
  const problems: string[] = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^(Inst|Remv) (\S+)( \[[^\]]+\])?/.exec(line);
    if (!m) continue;
    if (m[1] === 'Remv') problems.push(`would remove ${m[2]}`);
    else if (m[3]) problems.push(`would upgrade ${m[2]}${m[3]}`);
    if (/^(nodejs|npm|node-|libnode)/.test(m[2]!)) problems.push(`would install ${m[2]} (Debian's nodejs)`);
  }
  return problems;
}

function versions(pkg: string): string[] {
  const r = sh('apt-cache', ['madison', pkg]);
  return [...new Set(r.stdout.split('\n').map((l) => l.split('|')[1]?.trim()).filter((v): v is string => !!v))];
}

/** The install spec for one wanted package (or one of alternatives): `name` or `name=version`, or the reasons none fits. */
function chooseSpec(want: string | string[]): { spec?: string; reasons?: string[] } {
  const reasons: string[] = [];
  for (const pkg of Array.isArray(want) ? want : [want]) {
    const vs = versions(pkg);
    if (!vs.length) { reasons.push(`${pkg}: not in the apt sources`); continue; }
    for (const v of vs) {
      const spec = v === vs[0] ? pkg : `${pkg}=${v}`;
      const p = planProblems([spec]);
      if (!p.length) return { spec };
      reasons.push(`${pkg}=${v}: ${p.join(', ')}`);
    }
  }
  return { reasons };
}

const describe = (w: string | string[]): string => (Array.isArray(w) ? w.join(' | ') : w);

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const missingTools = missing();
  if (!missingTools.length) {
    console.log('real-web bench: nginx-light, wget, httrack, time and every documentation package are installed');
    process.exit(0);
  }
  console.log(`real-web bench: missing ${missingTools.map(describe).join(', ')}`);
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get') && !process.argv.includes('--check');
  if (!canInstall) {
    console.log(`Install them (Debian/Ubuntu) with: sudo apt-get install --no-install-recommends ${missingTools.map((w) => (Array.isArray(w) ? w[0] : w)).join(' ')}`);
    console.log('(never a package that depends on Debian\'s nodejs: it would replace the Node that runs nutch-ts)');
    process.exit(1);
  }
  sh('apt-get', ['update']);
  const specs: string[] = [];
  for (const w of missingTools) {
    const c = chooseSpec(w);
    if (!c.spec) {
      console.error(`real-web bench: cannot install ${describe(w)} safely:\n  ${c.reasons!.join('\n  ')}`);
      process.exit(1);
    }
    specs.push(c.spec);
  }
  const problems = planProblems(specs);
  if (problems.length) {
    console.error(`real-web bench: refusing apt-get install ${specs.join(' ')}: ${problems.join(', ')}`);
    process.exit(1);
  }
  console.log(`apt-get install --no-install-recommends ${specs.join(' ')}`);
  const r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...specs], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  process.exit(r.status ?? 1);
}
