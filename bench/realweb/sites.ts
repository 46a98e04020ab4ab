// The real sites of the real-web bench (bench/realweb.bench.ts): documentation trees that Debian
// packages install, written by other people with different generators, each served by nginx as its
// own host on a loopback IP, with a robots.txt written here. `packages` lists alternatives (the first
// one installed wins; setup.ts installs the first one the distribution has).
export interface Site {
  key: string;
  generator: string;
  packages: string[];
  root: (pkg: string) => string;
  start: string;
  robots: string[];
}

export const SITES: Site[] = [
  {
    key: 'postgresql',
    generator: 'DocBook XSL',
    packages: ['postgresql-doc-15', 'postgresql-doc-16', 'postgresql-doc-17', 'postgresql-doc-14'],
    root: (pkg: string) => `/usr/share/doc/${pkg}/html`,
    start: '/index.html',
    robots: ['Disallow: /release-', 'Disallow: /bookindex.html'],
  },
  {
    key: 'git',
    generator: 'AsciiDoc',
    packages: ['git-doc'],
    root: () => '/usr/share/doc/git-doc',
    start: '/git.html',
    robots: ['Disallow: /howto/', 'Disallow: /technical/', 'Disallow: /RelNotes/'],
  },
  {
    key: 'sqlite',
    generator: 'Tcl (sqlite wrap.tcl)',
    packages: ['sqlite3-doc'],
    root: () => '/usr/share/doc/sqlite3',
    start: '/index.html',
    robots: ['Disallow: /releaselog/', 'Disallow: /search'],
  },
  {
    key: 'cmake',
    generator: 'Sphinx',
    packages: ['cmake-doc'],
    root: () => '/usr/share/doc/cmake-doc/html',
    start: '/index.html',
    robots: ['Disallow: /_sources/', 'Disallow: /genindex.html', 'Disallow: /search.html'],
  },
  {
    key: 'debian-reference',
    generator: 'DocBook XSL (few large pages)',
    packages: ['debian-reference-en'],
    root: () => '/usr/share/debian-reference',
    start: '/index.en.html',
    robots: ['Disallow: /apa.en.html'],
  },
];

/** The tools the bench runs beside nutch-ts (Debian package → the binary it provides). */
export const TOOLS = [
  { pkg: 'nginx-light', bin: '/usr/sbin/nginx' },
  { pkg: 'wget', bin: '/usr/bin/wget' },
  { pkg: 'httrack', bin: '/usr/bin/httrack' },
  { pkg: 'time', bin: '/usr/bin/time' },
];

/** Loopback address of the i-th site: one host per site, all on one port. */
export const siteAddress = (i: number): string => `127.0.100.${i + 1}`;
