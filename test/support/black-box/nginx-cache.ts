// A real caching reverse proxy in front of the service: Debian's nginx, as a CDN stands in front of
// it. A minimal nginx.conf in a temp dir (every path nginx writes is inside it), one server on a
// free loopback port that proxies to the service and caches what the upstream's Cache-Control
// allows (`public, max-age=…` is cached; `private` is not), keyed by the full URL, query included
// (nginx's default key, $scheme$proxy_host$request_uri). X-Cache-Status tells MISS, HIT, …
// The cache and server directives are docs/embedding.md's example ("Putting a CDN in front").
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freeLoopbackPort } from './listen.ts';
import { ROOT } from './server-process.ts';

export const NGINX = process.env.NGINX_PATH ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');

export interface NginxCache {
  /** http://127.0.0.1:<port> of the proxy. */
  url: string;
  /** The error log so far (for a failure message). */
  errors(): string;
  stop(): Promise<void>;
}

/**
 * The example of docs/embedding.md ("Putting a CDN in front", after `<!-- nginx-example -->`), with
 * its cache directory and ports replaced: the test runs what the documentation shows.
 */
export function documentedCacheConfig(cacheDir: string, listenPort: number, upstreamPort: number): string {
  const doc = readFileSync(path.join(ROOT, 'docs', 'embedding.md'), 'utf8');
  const example = /<!-- nginx-example -->\s*```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!example) throw new Error('docs/embedding.md has no <!-- nginx-example --> block');
  const replaced = example
    .replace('/var/cache/nginx/render', cacheDir)
    .replace('listen 127.0.0.1:8081;', `listen 127.0.0.1:${listenPort};`)
    .replace('proxy_pass http://127.0.0.1:8080;', `proxy_pass http://127.0.0.1:${upstreamPort};`);
  for (const part of [cacheDir, `:${listenPort};`, `:${upstreamPort};`])
    if (!replaced.includes(part)) throw new Error(`the nginx example in docs/embedding.md changed shape (no place for ${part})`);
  return replaced;
}

export async function startNginxCache(upstream: string, timeoutMs = 20_000): Promise<NginxCache> {
  const dir = mkdtempSync(path.join(tmpdir(), 'render-service-nginx-'));
  const port = await freeLoopbackPort();
  const upstreamPort = Number(new URL(upstream).port);
  const conf = `# One process, in the foreground, as the user that starts it (no master, so no "user" switch).
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 64; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy_temp;
  fastcgi_temp_path ${dir}/fastcgi_temp;
  uwsgi_temp_path ${dir}/uwsgi_temp;
  scgi_temp_path ${dir}/scgi_temp;
${documentedCacheConfig(`${dir}/cache`, port, upstreamPort)}
}
`;
  writeFileSync(path.join(dir, 'nginx.conf'), conf);
  // -e: the error log before the configuration is read (the compiled-in default is /var/log/nginx).
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.once('error', (err) => (out += String(err)));
  const errors = () => {
    try {
      return `${out}${readFileSync(path.join(dir, 'error.log'), 'utf8')}`;
    } catch {
      return out;
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once it accepts a connection (or failed once it exits).
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const message = `nginx exited (${child.exitCode ?? child.signalCode}) before accepting connections\n${errors()}`;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(message);
    }
    if (await accepts(port)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not accept connections on ${port} in ${timeoutMs} ms\n${errors()}`);
    }
    // Poll again once nginx has had a turn (a refused connection comes back at once).
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url: `http://127.0.0.1:${port}`, errors, stop };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
