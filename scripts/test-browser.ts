// `npm run test:browser`: the browser build (`gitlab-emulator/browser`, built by tsup) bundled
// into a page by esbuild with its defaults for the browser (no polyfills, no stubs), served with
// MSW's service worker, and run in headless Chromium (Debian's `chromium`). The page creates a
// project, commits, tags, releases and lists through `fetch`, and posts what it saw back here.
// Then the inspector page (/-/emulator/ of a served emulator), driven through Chromium's
// DevTools protocol: each view is shown (and, with --screenshots, saved to docs/), and advancing
// the clock with the page's button runs a scheduled task. Needs Node's WebSocket (the npm script
// passes --experimental-websocket). Skipped, saying so, where Chromium is not installed.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { createEmulator } from '../src/index.js';
import { CHROMIUM, CHROMIUM_FLAGS, chromiumProfile, runPage } from '../test/support/chromium.js';

const ROOT = join(import.meta.dirname, '..');
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
  const outcome = await runPage({ page, worker, title: 'gitlab-emulator in a browser', timeoutMs: 60_000 });
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
  return inspector();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A page of Chromium driven through the DevTools protocol. */
async function devtools(profile: string, chromium: ReturnType<typeof spawn>) {
  let port = 0;
  for (let i = 0; i < 200 && !port; i++) {
    const file = join(profile, 'DevToolsActivePort');
    if (existsSync(file)) port = Number(readFileSync(file, 'utf8').split('\n')[0]);
    else await sleep(100);
  }
  if (!port) throw new Error(`Chromium gave no DevTools port (exit ${String(chromium.exitCode)})`);
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { type: string; webSocketDebuggerUrl: string }[];
  const ws = new WebSocket(targets.find((t) => t.type === 'page')!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let next = 0;
  const waiting = new Map<number, (m: { result?: unknown; error?: { message: string } }) => void>();
  ws.onmessage = (event) => {
    const m = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (m.id !== undefined) waiting.get(m.id)?.(m);
  };
  const send = <T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}) =>
    new Promise<T>((resolve, reject) => {
      const id = ++next;
      waiting.set(id, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result as T)));
      ws.send(JSON.stringify({ id, method, params }));
    });
  const evaluate = async (expression: string): Promise<unknown> =>
    ((await send<{ result: { value: unknown } }>('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })).result.value);
  return { send, evaluate, close: () => ws.close() };
}

/** The inspector in Chromium: every view shows, and the page's clock button runs a scheduled task. */
async function inspector(): Promise<number> {
  const screenshots = process.argv.includes('--screenshots');
  const emulator = await createEmulator({ clock: { now: Date.parse('2026-06-01T09:00:00Z'), frozen: true } });
  const server = await emulator.listen({ port: 0 });
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': 'glpat-emulator-root-token', 'Content-Type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  await api('GET', '/projects');
  const created = (await (await api('POST', '/projects', { name: 'Tools', namespace_id: 2 })).json()) as { id: number };
  await api('POST', `/projects/${created.id}/repository/files/tool.sh`, { branch: 'main', content: 'echo tool\n', commit_message: 'Add the tool' });
  await api('GET', '/projects/1/error_tracking/settings'); // not emulated
  await api('GET', '/user', undefined);
  const deleted = await api('DELETE', '/projects/acme%2Fsecrets'); // schedules its removal on the clock
  const createSeq = emulator.journal.entries().find((j) => j.method === 'POST' && j.path === '/api/v4/projects')!.seq;
  emulator.faults.add({ method: 'GET', path: '/projects/1/issues', status: 503, times: 3 });
  emulator.saveSnapshot('before-release');
  const problems: string[] = [];
  if (deleted.status !== 202 || emulator.state.tasks.size !== 1) problems.push(`the deletion scheduled ${emulator.state.tasks.size} task(s) (status ${deleted.status})`);

  const profile = chromiumProfile();
  const chromium = spawn(CHROMIUM!, [...CHROMIUM_FLAGS, `--user-data-dir=${profile.dir}`, '--remote-debugging-port=0', 'about:blank'], { stdio: 'ignore' });
  try {
    const page = await devtools(profile.dir, chromium);
    await page.send('Page.enable');
    await page.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 900, deviceScaleFactor: 1, mobile: false });
    const show = async (hash: string, view: string) => {
      const before = await page.evaluate('document.body && document.body.dataset.ready').catch(() => undefined);
      await page.send('Page.navigate', { url: `${server.url}/-/emulator/#${hash}` });
      for (let i = 0; i < 100; i++) {
        const state = (await page.evaluate(`JSON.stringify({ view: document.body && document.body.dataset.view, ready: document.body && document.body.dataset.ready, text: document.body ? document.body.innerText : '' })`).catch(() => null)) as string | null;
        const s = state ? (JSON.parse(state) as { view?: string; ready?: string; text: string }) : null;
        if (s && s.view === view && s.ready && s.ready !== before) return s.text;
        await sleep(100);
      }
      throw new Error(`the inspector's ${view} view did not show`);
    };
    const views: [string, string, RegExp][] = [
      ['world', 'world', /acme\/secrets[\s\S]*pending delete[\s\S]*Scheduled tasks[\s\S]*destroy/i],
      ['repositories/1', 'repositories', /v1\.0\.0[\s\S]*README\.md[\s\S]*Initial commit/],
      [`journal/${createSeq}`, 'journal', /not emulated[\s\S]*projects\/\d+[\s\S]*added/],
      ['clock', 'clock', /2026-06-01T09:00:00\.000Z \(frozen\)/],
      ['faults', 'faults', /\/projects\/1\/issues[\s\S]*503/],
      ['snapshots', 'snapshots', /before-release/],
    ];
    for (const [hash, view, expected] of views) {
      const text = await show(hash, view);
      if (!expected.test(text)) problems.push(`the ${view} view shows no ${expected}: ${text.slice(0, 300)}`);
      if (screenshots) {
        const shot = await page.send<{ data: string }>('Page.captureScreenshot', { format: 'png' });
        writeFileSync(join(ROOT, 'docs', `inspector-${view}.png`), Buffer.from(shot.data, 'base64'));
      }
    }
    // The clock view's button: advancing the clock runs the scheduled removal of acme/secrets.
    await show('clock', 'clock');
    // Nothing ran it yet: the page reads the world through the control API only, which runs no timed work.
    if (emulator.state.tasks.size !== 1) problems.push(`before the click, ${emulator.state.tasks.size} task(s) pending, not 1`);
    await page.evaluate(`document.querySelector('button[data-by="1h"]').click()`);
    let text = '';
    for (let i = 0; i < 100; i++) {
      text = String(await page.evaluate('document.body.innerText'));
      if (/10:00:00\.000Z/.test(text) && /0 pending task/.test(text)) break;
      await sleep(100);
    }
    const gone = (await api('GET', '/projects/acme%2Fsecrets')).status;
    if (emulator.state.tasks.size !== 0) problems.push(`advancing the clock in the page left ${emulator.state.tasks.size} task(s) pending`);
    if (gone !== 404) problems.push(`acme/secrets answers ${gone} after its removal ran`);
    if (!/2026-06-01T10:00:00\.000Z/.test(text)) problems.push(`the clock view does not show the advanced time: ${text.slice(0, 200)}`);
    page.close();
  } catch (e) {
    problems.push((e as Error).message);
  } finally {
    chromium.kill('SIGTERM');
    await new Promise((resolve) => chromium.once('exit', resolve));
    await server.close();
    profile.remove();
  }
  if (problems.length) {
    console.error(`test:browser: inspector FAILED:\n  ${problems.join('\n  ')}`);
    return 1;
  }
  console.log(`test:browser: ok: the inspector shows its six views${screenshots ? ' (saved to docs/inspector-*.png)' : ''}, and its clock button ran the scheduled removal of acme/secrets`);
  return 0;
}

process.exitCode = await main();
