// A page that runs the emulator in the browser through MSW's service worker, and drives it with
// `fetch` as a web app would: create a project, commit a file, tag it, release it, list the
// releases. It reports what it saw to the server that served it (POST /result).
import { setupWorker } from 'msw/browser';
import { createEmulator, handlers } from 'gitlab-emulator/browser';

async function run(): Promise<unknown> {
  const emulator = await createEmulator({ baseUrl: location.origin });
  const worker = setupWorker(...handlers(emulator));
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
  const headers = { 'PRIVATE-TOKEN': 'glpat-emulator-alice-token', 'Content-Type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`/api/v4${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & Record<string, unknown>[] };
  };
  const group = await call('GET', '/groups/acme');
  const project = await call('POST', '/projects', { name: 'In the browser', path: 'browser', namespace_id: group.body.id, initialize_with_readme: false });
  const id = project.body.id as number;
  const commit = await call('POST', `/projects/${id}/repository/files/hello.txt`, { branch: 'main', content: 'hello from a page\n', commit_message: 'Say hello' });
  const tag = await call('POST', `/projects/${id}/repository/tags`, { tag_name: 'v0.1.0', ref: 'main' });
  const release = await call('POST', `/projects/${id}/releases`, { tag_name: 'v0.1.0', name: 'First', description: 'From a **page**' });
  const list = await call('GET', `/projects/${id}/releases`);
  const raw = await fetch(`/api/v4/projects/${id}/repository/files/hello.txt/raw?ref=v0.1.0`, { headers });
  let listenRefused = '';
  try {
    await emulator.listen();
  } catch (e) {
    listenRefused = (e as Error).message;
  }
  worker.stop();
  return {
    statuses: [group.status, project.status, commit.status, tag.status, release.status, list.status, raw.status],
    commitSha: (tag.body.commit as { id?: string } | undefined)?.id ?? null,
    releases: list.body.map((r) => r.tag_name),
    raw: await raw.text(),
    listenRefused,
  };
}

run()
  .then((result) => fetch('/result', { method: 'POST', body: JSON.stringify({ ok: true, result }) }))
  .catch((e: unknown) => fetch('/result', { method: 'POST', body: JSON.stringify({ ok: false, error: String((e as Error)?.stack ?? e) }) }));
