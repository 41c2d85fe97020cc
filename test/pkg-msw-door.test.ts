// The MSW door where the emulator shares its origin with a page (`baseUrl: location.origin`):
// the page's own files pass through to the network, what the emulator serves does not.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { handlers } from '../src/msw.js';

let site: Server;
let origin: string;
let emulator: Emulator;

beforeAll(async () => {
  // The page's own server: every path answers 200 with its name.
  site = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end(`site ${req.method} ${req.url}`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  emulator = await createEmulator({ baseUrl: origin });
});
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));
afterEach(() => vi.unstubAllGlobals());

const GIT_REFS = '/acme/website.git/info/refs?service=git-upload-pack';

describe('emulator.serves', () => {
  it('claims the API, the git paths, the control API and the web routes, and no other path', () => {
    for (const path of ['/api/v4/projects', '/api/v4/no/such/route', GIT_REFS, '/-/emulator', '/acme/website/-/archive/main/website-main.zip']) {
      expect(emulator.serves('GET', `${origin}${path}`), path).toBe(true);
    }
    for (const path of ['/', '/index.html', '/assets/app.js', '/mockServiceWorker.js', '/acme/website', '/favicon.ico']) {
      expect(emulator.serves('GET', `${origin}${path}`), path).toBe(false);
    }
  });
});

describe('the MSW handlers on the page\'s own origin', () => {
  async function withServer<T>(options: Parameters<typeof handlers>[1], run: () => Promise<T>): Promise<T> {
    const server = setupServer(...handlers(emulator, options));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      return await run();
    } finally {
      server.close();
    }
  }
  const get = async (path: string) => {
    const res = await fetch(`${origin}${path}`, { headers: { 'PRIVATE-TOKEN': 'glpat-emulator-root-token' } });
    return { status: res.status, body: await res.text(), noRoute: res.headers.get('x-gitlab-emulator') };
  };

  it('lets the page\'s files through and answers the API, the git paths and the control API', async () => {
    vi.stubGlobal('location', { origin });
    await withServer({}, async () => {
      expect(await get('/index.html')).toMatchObject({ status: 200, body: 'site GET /index.html' });
      expect(await get('/')).toMatchObject({ status: 200, body: 'site GET /' });
      const projects = await get('/api/v4/projects');
      expect(projects.status).toBe(200);
      expect((JSON.parse(projects.body) as { path_with_namespace: string }[]).map((p) => p.path_with_namespace)).toContain('acme/website');
      expect(await get('/api/v4/no/such/route')).toMatchObject({ status: 404, noRoute: 'no-route' });
      const refs = await get(GIT_REFS);
      expect(refs.status).toBe(200);
      expect(refs.body).toContain('git-upload-pack');
      expect((await get('/-/emulator')).status).toBe(200);
    });
  });

  it('answers every path of another base URL, as GitLab would (a 404 for an unknown one)', async () => {
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:1' });
    await withServer({}, async () => {
      expect(await get('/index.html')).toMatchObject({ status: 404, noRoute: 'no-route' });
    });
  });

  it('follows unknownPaths where it is given', async () => {
    await withServer({ unknownPaths: 'passthrough' }, async () => {
      expect(await get('/index.html')).toMatchObject({ status: 200, body: 'site GET /index.html' });
      expect((await get('/api/v4/projects')).status).toBe(200);
    });
    vi.stubGlobal('location', { origin });
    await withServer({ unknownPaths: 'answer' }, async () => {
      expect(await get('/index.html')).toMatchObject({ status: 404, noRoute: 'no-route' });
    });
  });
});
