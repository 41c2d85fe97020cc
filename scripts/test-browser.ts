// `npm run test:browser`: the browser build (`gitlab-emulator/browser`, built by tsup) bundled
// into a page by esbuild with its defaults for the browser (no polyfills, no stubs), served with
// MSW's service worker, and run in headless Chromium (Debian's `chromium`). The page creates a
// project, commits, tags, releases and lists through `fetch`, and posts what it saw back here.
// Skipped, saying so, where Chromium is not installed.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const ROOT = join(import.meta.dirname, '..');
const CHROMIUM = ['chromium', 'chromium-browser', 'google-chrome'].map((c) => which(c)).find((p) => p !== undefined);

function which(command: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function newest(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const s = statSync(join(dir, name));
    t = Math.max(t, s.isDirectory() ? newest(join(dir, name)) : s.mtimeMs);
  }
  return t;
}

async function main(): Promise<number> {
  if (!CHROMIUM) {
    console.log('test:browser: SKIPPED: no Chromium on this machine (install Debian\'s `chromium` package to run it)');
    return 0;
  }
  const dist = join(ROOT, 'dist', 'browser.js');
  if (!existsSync(dist) || statSync(dist).mtimeMs < newest(join(ROOT, 'src'))) {
    console.log('test:browser: building the package (tsup)...');
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'tsup', 'dist', 'cli-default.js')], { cwd: ROOT, stdio: 'ignore' });
  }
  const bundle = await build({
    entryPoints: [join(ROOT, 'test', 'browser', 'page.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    alias: { 'gitlab-emulator/browser': dist },
    logLevel: 'error',
  });
  const page = bundle.outputFiles[0]!.text;
  const worker = readFileSync(join(ROOT, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js'));
  let report: (value: { ok: boolean; result?: unknown; error?: string }) => void;
  const reported = new Promise<{ ok: boolean; result?: unknown; error?: string }>((resolve) => (report = resolve));
  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/result') {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        res.end('ok');
        report(JSON.parse(body) as { ok: boolean });
      });
      return;
    }
    const [type, content] =
      req.url === '/page.js' ? ['text/javascript', page] : req.url === '/mockServiceWorker.js' ? ['text/javascript', worker] : ['text/html', '<!doctype html><title>gitlab-emulator in a browser</title><script type="module" src="/page.js"></script>'];
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' });
    res.end(content);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const profile = mkdtempSync(join(tmpdir(), 'gle-chromium-'));
  const chromium = spawn(
    CHROMIUM,
    ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`, url],
    { stdio: 'ignore' },
  );
  const timeout = new Promise<{ ok: false; error: string }>((resolve) => setTimeout(() => resolve({ ok: false, error: 'the page reported nothing within 60 s' }), 60_000).unref());
  const outcome = await Promise.race([reported, timeout]);
  chromium.kill('SIGTERM');
  await new Promise((resolve) => chromium.once('exit', resolve));
  server.close();
  rmSync(profile, { recursive: true, force: true });
  if (!outcome.ok) {
    console.error(`test:browser: FAILED: ${outcome.error}`);
    return 1;
  }
  const r = outcome.result as { statuses: number[]; releases: string[]; raw: string; listenRefused: string; commitSha: string | null };
  const problems: string[] = [];
  const expectStatuses = [200, 201, 201, 201, 201, 200, 200];
  if (JSON.stringify(r.statuses) !== JSON.stringify(expectStatuses)) problems.push(`statuses ${JSON.stringify(r.statuses)}, expected ${JSON.stringify(expectStatuses)}`);
  if (JSON.stringify(r.releases) !== '["v0.1.0"]') problems.push(`releases ${JSON.stringify(r.releases)}`);
  if (r.raw !== 'hello from a page\n') problems.push(`raw file ${JSON.stringify(r.raw)}`);
  if (!/^[0-9a-f]{40}$/.test(r.commitSha ?? '')) problems.push(`tag commit ${String(r.commitSha)}`);
  if (!/needs Node/.test(r.listenRefused)) problems.push(`listen() in a browser: ${JSON.stringify(r.listenRefused)}`);
  if (problems.length) {
    console.error(`test:browser: FAILED:\n  ${problems.join('\n  ')}`);
    return 1;
  }
  console.log(`test:browser: ok: in ${CHROMIUM}, the page created a project, committed (${r.commitSha!.slice(0, 8)}), tagged, released and listed ${JSON.stringify(r.releases)} through fetch`);
  return 0;
}

process.exitCode = await main();
