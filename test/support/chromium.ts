// A page run in headless Chromium (Debian's `chromium`): served from a local node:http server
// with MSW's service worker beside it, the page posting what it saw to /result. Shared by the
// package consumer test and `npm run test:browser`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The first Chromium on PATH, if any. */
export const CHROMIUM = ['chromium', 'chromium-browser', 'google-chrome'].map((c) => {
  try {
    return execFileSync('sh', ['-c', `command -v ${c}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}).find((p) => p !== undefined);

export interface PageOutcome { ok: boolean; result?: unknown; error?: string }

/** Chromium's profile folder for one run, and its removal (its helper processes may still be closing files: retry, then leave it). */
export function chromiumProfile(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'gle-chromium-'));
  return {
    dir,
    remove: () => {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      } catch {
        // left in the system's temporary folder
      }
    },
  };
}

/** Serves `/page.js` (the bundled page), `/mockServiceWorker.js` and an HTML page loading it; what the page posts, or an error after the time given. */
export async function runPage(o: { page: string; worker: Uint8Array; title: string; timeoutMs: number }): Promise<PageOutcome> {
  if (!CHROMIUM) throw new Error('no Chromium on this machine');
  let report!: (value: PageOutcome) => void;
  const reported = new Promise<PageOutcome>((resolve) => (report = resolve));
  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/result') {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        res.end('ok');
        report(JSON.parse(body) as PageOutcome);
      });
      return;
    }
    const [type, content] =
      req.url === '/page.js' ? ['text/javascript', o.page] : req.url === '/mockServiceWorker.js' ? ['text/javascript', o.worker] : ['text/html', `<!doctype html><title>${o.title}</title><script type="module" src="/page.js"></script>`];
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' });
    res.end(content);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const profile = chromiumProfile();
  const chromium = spawn(CHROMIUM, [...CHROMIUM_FLAGS, `--user-data-dir=${profile.dir}`, `http://127.0.0.1:${(server.address() as AddressInfo).port}/index.html`], { stdio: 'ignore' });
  try {
    const timeout = new Promise<PageOutcome>((resolve) => setTimeout(() => resolve({ ok: false, error: `the page reported nothing within ${o.timeoutMs / 1000} s` }), o.timeoutMs).unref());
    return await Promise.race([reported, timeout]);
  } finally {
    chromium.kill('SIGTERM');
    await new Promise((resolve) => chromium.once('exit', resolve));
    server.close();
    profile.remove();
  }
}
