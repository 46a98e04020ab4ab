/**
 * One nginx (Debian's nginx-light) serving every site of sites.ts, each on its own loopback IP, with
 * the robots.txt written here and an access log of one JSON object per request: the end time and
 * duration (so in-flight requests can be counted), the site, status, content type, user agent and
 * connection number. Runs in the foreground as a child of the bench, in its own prefix directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:net';

export interface ServedSite {
  key: string;
  generator: string;
  pkg: string;
  root: string;
  ip: string;
  base: string;
  startUrl: string;
  robots: string[];
}

const LOG_FORMAT = `'{"t":$msec,"rt":$request_time,"ip":"$server_addr","s":$status,"u":"$request_uri","ct":"$sent_http_content_type","b":$body_bytes_sent,"ua":"$http_user_agent","c":$connection}'`;

export function robotsTxt(site: Pick<ServedSite, 'robots'>): string {
  return ['User-agent: *', ...site.robots, ''].join('\n');
}

export async function startNginx(dir: string, sites: ServedSite[], port: number): Promise<{ accessLog: string; stop(): Promise<void> }> {
  mkdirSync(join(dir, 'logs'), { recursive: true });
  mkdirSync(join(dir, 'temp'), { recursive: true });
  // robots.txt comes from the configuration itself: nginx's workers (user nobody under root) cannot
  // read files in a private temporary directory
  const servers = sites.map((s) => `
    server {
      listen ${s.ip}:${port};
      root ${s.root};
      location = /robots.txt { default_type text/plain; return 200 "${robotsTxt(s).replace(/["\\$]/g, '\\$&').replace(/\n/g, '\\n')}"; }
    }`);
  const mime = existsSync('/etc/nginx/mime.types') ? 'include /etc/nginx/mime.types;' : 'types { text/html html htm; text/css css; }';
  const accessLog = join(dir, 'logs', 'access.log');
  writeFileSync(join(dir, 'nginx.conf'), `
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'logs', 'error.log')} warn;
events { worker_connections 1024; }
http {
  ${mime}
  default_type application/octet-stream;
  sendfile on;
  keepalive_requests 100000;
  client_body_temp_path ${join(dir, 'temp')};
  proxy_temp_path ${join(dir, 'temp')};
  fastcgi_temp_path ${join(dir, 'temp')};
  uwsgi_temp_path ${join(dir, 'temp')};
  scgi_temp_path ${join(dir, 'temp')};
  log_format bench escape=json ${LOG_FORMAT};
  access_log ${accessLog} bench;
  ${servers.join('\n')}
}
`);
  const child: ChildProcess = spawn('/usr/sbin/nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'logs', 'error.log'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}: ${stderr}`);
    if (await canConnect(sites[0]!.ip, port)) break;
    if (i > 100) throw new Error(`nginx did not listen on ${sites[0]!.ip}:${port} within 5 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    accessLog,
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port }, () => { s.end(); resolve(true); });
    s.on('error', () => resolve(false));
  });
}
