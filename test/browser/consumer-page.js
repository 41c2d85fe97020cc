// The page of test/pkg-consumer.test.ts, bundled from a project that installed the packed package
// and msw only: the emulator on the page's own origin (`baseUrl: location.origin`) through MSW's
// service worker. The API is the emulator's; the page's own files, and the POST that reports
// what the page saw, still reach the server that serves the page.
import { setupWorker } from 'msw/browser';
import { createEmulator, handlers } from 'gitlab-emulator/browser';

async function run() {
  const emulator = await createEmulator({ baseUrl: location.origin });
  const worker = setupWorker(...handlers(emulator));
  await worker.start({ quiet: true, onUnhandledRequest: 'error' });
  const headers = { 'PRIVATE-TOKEN': 'glpat-emulator-alice-token', 'Content-Type': 'application/json' };
  const projects = await fetch('/api/v4/projects', { headers });
  const created = await fetch('/api/v4/projects', { method: 'POST', headers, body: JSON.stringify({ name: 'From a page' }) });
  const unknown = await fetch('/api/v4/no/such/route', { headers });
  const own = await fetch('/index.html');
  return {
    projects: projects.status,
    names: (await projects.json()).map((p) => p.path_with_namespace),
    created: created.status,
    unknown: unknown.status,
    ownStatus: own.status,
    ownPage: (await own.text()).includes('consumer page'),
  };
}

// Sent while the worker still runs: a request of the page's own it must let through.
run()
  .then((result) => fetch('/result', { method: 'POST', body: JSON.stringify({ ok: true, result }) }))
  .catch((e) => fetch('/result', { method: 'POST', body: JSON.stringify({ ok: false, error: String(e?.stack ?? e) }) }));
