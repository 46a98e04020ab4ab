// A node:test reporter that prints, once the run ends, the slowest test files: each file's wall time
// as the runner measures it (its process, start-up included; files run two at a time, so this is what
// each costs CI) and its slowest test. tests/run-tests.mjs adds it beside the spec reporter; CI's time budget is
// spent where this list says. NUTCH_TEST_SLOWEST=<n> prints n files (default 15, 0 none).
const count = Number(process.env.NUTCH_TEST_SLOWEST ?? 15);

export default async function* fileDurations(source) {
  /** test file -> { ms, slowest: { name, ms } } (a file runs as a test named by its path) */
  const files = new Map();
  const entry = (file) => {
    let f = files.get(file);
    if (!f) files.set(file, (f = { ms: null, slowest: null }));
    return f;
  };
  for await (const event of source) {
    const d = event.data;
    if (!d?.file) continue;
    const isFile = d.name === d.file;
    if (event.type === 'test:complete' && isFile) entry(d.file).ms = d.details?.duration_ms ?? null;
    else if ((event.type === 'test:pass' || event.type === 'test:fail') && !isFile && d.nesting === 0) {
      const f = entry(d.file);
      const ms = d.details?.duration_ms ?? 0;
      if (!f.slowest || ms > f.slowest.ms) f.slowest = { name: d.name, ms };
    }
  }
  const root = process.cwd() + '/';
  const rows = [...files].filter(([, f]) => f.ms !== null)
    .map(([file, f]) => ({ file: file.startsWith(root) ? file.slice(root.length) : file, ms: f.ms, slowest: f.slowest }));
  if (count <= 0 || rows.length === 0) return;
  rows.sort((a, b) => b.ms - a.ms);
  yield `\nslowest test files (each file's run, start-up included; ${rows.length} files, two at a time):\n`;
  for (const r of rows.slice(0, count)) {
    const s = (r.ms / 1000).toFixed(1).padStart(6);
    yield `${s} s  ${r.file}${r.slowest ? `  (slowest test ${(r.slowest.ms / 1000).toFixed(1)} s: ${r.slowest.name.slice(0, 90)})` : ''}\n`;
  }
}
