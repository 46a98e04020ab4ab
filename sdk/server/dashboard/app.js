// The crawl dashboard: preact components (through htm, no build step) over nutch server's JSON API,
// uPlot for the charts. Live figures come from /api/crawl/events; the rest is read when a stage ends.
import { html, render, useState, useEffect, useRef, useCallback } from '/assets/preact.js';

const token = new URLSearchParams(location.search).get('token');
const headers = token ? { authorization: `Bearer ${token}` } : {};

async function api(path, init = {}) {
  const res = await fetch(path, { ...init, headers: { ...headers, ...(init.body ? { 'content-type': 'application/json' } : {}) } });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(body?.message ?? `${res.status} ${res.statusText}`);
  return body;
}

const fmt = new Intl.NumberFormat('en');
const MIX = [['success', 'ok'], ['redirect', 'redirect'], ['notfound', 'not found'], ['gone', 'gone'], ['robots_denied', 'robots'], ['exception', 'exceptions']];

function bytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

function duration(s) {
  if (!Number.isFinite(s)) return '–';
  s = Math.round(s);
  const m = Math.floor(s / 60);
  return m ? `${m}m ${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** A uPlot chart that follows its data; `data-points` tells how much it holds (tests and people read it). */
function Chart({ id, options, data, summary }) {
  const el = useRef(null);
  const plot = useRef(null);
  useEffect(() => {
    const width = Math.max(300, el.current.clientWidth - 4);
    plot.current = new uPlot({ width, height: 200, ...options }, data, el.current);
    const onResize = () => plot.current.setSize({ width: Math.max(300, el.current.clientWidth - 4), height: 200 });
    window.addEventListener('resize', onResize);
    return () => { window.removeEventListener('resize', onResize); plot.current.destroy(); };
  }, []);
  useEffect(() => { plot.current?.setData(data); }, [data]);
  return html`<div id=${id} ref=${el} data-points=${data[0].length} data-summary=${summary}></div>`;
}

const rateOptions = {
  scales: { x: { time: false }, pages: { auto: true } },
  axes: [{ label: 'seconds' }, { label: 'pages/s' }, { side: 1, scale: 'pages', label: 'pages', grid: { show: false } }],
  series: [{ label: 's' }, { label: 'pages/s', stroke: '#2563eb', width: 2, fill: '#2563eb22' }, { label: 'pages fetched', stroke: '#667085', scale: 'pages' }],
};

const mixOptions = {
  scales: { x: { time: false, range: [-0.5, MIX.length - 0.5] } },
  axes: [{ splits: () => MIX.map((_, i) => i), values: (_u, splits) => splits.map((i) => MIX[i]?.[1] ?? '') }, { label: 'pages' }],
  series: [{ label: 'status' }, { label: 'pages', fill: '#2563ebaa', stroke: '#2563eb', paths: uPlot.paths.bars({ size: [0.6, 80] }), points: { show: false } }],
  legend: { show: false },
};

function CrawlForm({ crawl, onError }) {
  const [seeds, setSeeds] = useState('');
  const [rounds, setRounds] = useState(2);
  const [topN, setTopN] = useState(1000);
  const running = crawl && (crawl.state === 'running' || crawl.state === 'stopping');
  const start = async () => {
    try {
      const list = seeds.split(/\s+/).filter(Boolean);
      await api('/api/crawl', { method: 'POST', body: JSON.stringify({ ...(list.length ? { seeds: list } : {}), rounds: Number(rounds), topN: Number(topN) }) });
      onError(null);
    } catch (err) { onError(err.message); }
  };
  const stop = async () => { try { await api('/api/crawl/stop', { method: 'POST' }); } catch (err) { onError(err.message); } };
  return html`<section class="wide">
    <h2>Crawl</h2>
    <textarea id="seeds" placeholder="Seed URLs, one per line (empty: continue the crawl in the CrawlDb)" value=${seeds} onInput=${(e) => setSeeds(e.target.value)}></textarea>
    <p>
      <label>rounds <input id="rounds" type="number" min="1" value=${rounds} onInput=${(e) => setRounds(e.target.value)} /></label>
      <label>URLs per round <input id="topN" type="number" min="1" value=${topN} onInput=${(e) => setTopN(e.target.value)} /></label>
      <button id="start" disabled=${running} onClick=${start}>Start crawl</button>${' '}
      <button id="stop" class="secondary" disabled=${!running || crawl.state === 'stopping'} onClick=${stop}>Stop</button>
    </p>
  </section>`;
}

function Live({ crawl }) {
  if (!crawl) return html`<section class="wide"><h2>Progress</h2><p class="muted">No crawl started since the server started.</p></section>`;
  const pct = crawl.total ? Math.min(100, (100 * crawl.done) / crawl.total) : null;
  const eta = crawl.stage === 'fetch' && crawl.total && crawl.pagesPerSecond > 0 ? (crawl.total - crawl.done) / crawl.pagesPerSecond : NaN;
  const series = [crawl.series.map((s) => s.t), crawl.series.map((s) => s.rate), crawl.series.map((s) => s.pages)];
  const mix = [MIX.map((_, i) => i), MIX.map(([k]) => crawl.statusMix[k] ?? 0)];
  return html`<section class="wide">
    <h2>Progress</h2>
    <div class="figures">
      <div class="figure"><b id="crawl-state" class=${`state-${crawl.state}`}>${crawl.state}</b><span>crawl #${crawl.id}</span></div>
      <div class="figure"><b>${crawl.round ?? '–'} / ${crawl.request.rounds ?? 1}</b><span>round</span></div>
      <div class="figure"><b id="stage">${crawl.stage ?? '–'}</b><span>stage</span></div>
      <div class="figure"><b>${fmt.format(crawl.done)}${crawl.total ? ` / ${fmt.format(crawl.total)}` : ''}${pct !== null ? ` (${pct.toFixed(0)}%)` : ''}</b><span>stage progress</span></div>
      <div class="figure"><b id="pages">${fmt.format(crawl.pages)}</b><span>pages fetched</span></div>
      <div class="figure"><b>${fmt.format(crawl.pagesPerSecond)}</b><span>pages/s</span></div>
      <div class="figure"><b>${duration(eta)}</b><span>fetch ETA</span></div>
      <div class="figure"><b>${bytes(crawl.bytes)}</b><span>downloaded</span></div>
    </div>
    ${pct !== null ? html`<div class="progress"><div style=${`width:${pct}%`}></div></div>` : null}
    ${crawl.error ? html`<p class="error">${crawl.error}</p>` : null}
    <div class="grid" style="margin-top:12px">
      <div><h2>Pages per second</h2><${Chart} id="rate-chart" options=${rateOptions} data=${series} summary=${crawl.pages} /></div>
      <div><h2>Fetch status mix</h2><${Chart} id="mix-chart" options=${mixOptions} data=${mix} summary=${MIX.map(([k, l]) => `${l}=${crawl.statusMix[k] ?? 0}`).join(' ')} /></div>
    </div>
  </section>`;
}

function HostTable({ title, id, rows, value }) {
  return html`<section><h2>${title}</h2>
    ${rows.length === 0 ? html`<p class="muted">Nothing fetched yet.</p>` : html`<table id=${id}>
      <tr><th>host</th><th class="n">pages</th><th class="n">avg ms</th><th class="n">errors</th></tr>
      ${rows.map((r) => html`<tr key=${r.host}><td>${r.host}</td><td class="n">${r.pages}</td><td class="n">${r.avgMs}</td><td class="n">${r.errors}</td></tr>`)}
    </table>`}
  </section>`;
}

function Stats({ stats, hosts, segments }) {
  if (!stats) return html`<section><h2>CrawlDb</h2><p class="muted">No CrawlDb yet: start a crawl with seed URLs.</p></section>`;
  return html`
    <section><h2>CrawlDb</h2>
      <table id="crawldb-stats">
        <tr><th>TOTAL urls</th><td class="n">${fmt.format(stats.totalUrls)}</td></tr>
        ${Object.entries(stats.status).map(([name, s]) => html`<tr key=${name}><td>${name}</td><td class="n">${fmt.format(s.count)}</td></tr>`)}
        ${stats.score ? html`<tr><td>score min / avg / max</td><td class="n">${stats.score.min.toFixed(3)} / ${stats.score.avg.toFixed(3)} / ${stats.score.max.toFixed(3)}</td></tr>` : null}
      </table>
    </section>
    <section><h2>Hosts in the CrawlDb</h2>
      <table id="hosts"><tr><th>host</th><th class="n">URLs</th><th>by status</th></tr>
        ${hosts.slice(0, 12).map((h) => html`<tr key=${h.host}><td>${h.host}</td><td class="n">${h.total}</td><td class="muted">${Object.entries(h.status).map(([k, v]) => `${k.replace(/^db_/, '')} ${v}`).join(', ')}</td></tr>`)}
      </table>
    </section>
    <section><h2>Segments</h2>
      <table id="segments"><tr><th>segment</th><th class="n">generated</th><th class="n">fetched</th><th class="n">parsed</th><th>parts</th></tr>
        ${segments.map((s) => html`<tr key=${s.name}><td>${s.name}</td><td class="n">${s.generated}</td><td class="n">${s.fetched}</td><td class="n">${s.parsed}</td><td class="muted">${s.incomplete.length ? `incomplete: ${s.incomplete.join(', ')}` : 'complete'}</td></tr>`)}
      </table>
    </section>`;
}

/** The index's `<b>…</b>` highlights as <b> elements; every other character stays text. */
function Snippet({ text }) {
  const parts = text.split(/<b>([\s\S]*?)<\/b>/g);
  return html`<div class="snippet">${parts.map((p, i) => (i % 2 ? html`<b>${p}</b>` : p))}</div>`;
}

function Search() {
  const [q, setQ] = useState('');
  const [hits, setHits] = useState(null);
  const [error, setError] = useState(null);
  const run = async (e) => {
    e.preventDefault();
    if (!q.trim()) return;
    try {
      setHits(await api(`/api/search?q=${encodeURIComponent(q)}&n=10`));
      setError(null);
    } catch (err) { setHits(null); setError(err.message); }
  };
  return html`<section class="wide"><h2>Search</h2>
    <form onSubmit=${run}><input id="q" size="40" placeholder="query" value=${q} onInput=${(e) => setQ(e.target.value)} /> <button id="search" type="submit">Search</button></form>
    ${error ? html`<p class="error">${error}</p>` : null}
    ${hits ? html`<p class="muted" id="hit-count">${hits.length} hit(s)</p><ol id="results">${hits.map((h) => html`<li class="hit" key=${h.url}>
      <a href=${h.url} target="_blank" rel="noreferrer">${h.title || h.url}</a> <span class="score">score ${Number(h.score.toPrecision(3))}</span>
      <div class="url">${h.url}</div><${Snippet} text=${h.snippet} /></li>`)}</ol>` : null}
  </section>`;
}

function App() {
  const [status, setStatus] = useState(null);
  const [crawl, setCrawl] = useState(null);
  const [stats, setStats] = useState(null);
  const [hosts, setHosts] = useState([]);
  const [segments, setSegments] = useState([]);
  const [error, setError] = useState(null);
  const refresh = useCallback(async () => {
    try {
      setStats(await api('/api/crawldb/stats'));
      setHosts(await api('/api/hosts?limit=50'));
      setSegments(await api('/api/segments'));
    } catch { setStats(null); }
  }, []);
  useEffect(() => {
    api('/api/status').then((s) => { setStatus(s); setCrawl(s.crawl); }, (err) => setError(err.message));
    refresh();
    const events = new EventSource(`/api/crawl/events${token ? `?token=${encodeURIComponent(token)}` : ''}`);
    events.addEventListener('state', (e) => {
      const next = JSON.parse(e.data);
      setCrawl(next);
    });
    events.addEventListener('progress', (e) => {
      const ev = JSON.parse(e.data);
      if (ev.type === 'stage-end' && ['updatedb', 'inject', 'generate', 'fetch', 'parse', 'crawl'].includes(ev.stage)) refresh();
    });
    return () => events.close();
  }, []);
  return html`
    <header><h1>nutch-ts crawl dashboard</h1><span class="dir">${status?.crawlDir ?? ''}</span><span class="muted">${status ? `v${status.version}` : ''}</span></header>
    ${error ? html`<p class="error" id="error">${error}</p>` : null}
    <div class="grid">
      <${CrawlForm} crawl=${crawl} onError=${setError} />
      <${Live} crawl=${crawl} />
      <${HostTable} title="Busiest hosts (this crawl)" id="busiest-hosts" rows=${crawl?.busiestHosts ?? []} />
      <${HostTable} title="Slowest hosts (this crawl)" id="slowest-hosts" rows=${crawl?.slowestHosts ?? []} />
      <${Stats} stats=${stats} hosts=${hosts} segments=${segments} />
      <${Search} />
    </div>`;
}

const root = document.getElementById('app');
root.textContent = '';
render(html`<${App} />`, root);
