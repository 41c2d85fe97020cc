// `gitlab-emulator/vitest`: one call sets up an emulator behind MSW for a test file. Before all
// tests it seeds the fixture and starts intercepting `fetch`; before each test it puts the world
// back as seeded (clock, journal and faults too); after all it stops intercepting. With `world`,
// it takes a world of its own on a server shared by the whole run instead (one per worker:
// `POST /-/emulator/worlds`), reset before each test and removed after all of them.
// msw is the project's own (a peer dependency: one copy, the one its tests and its service
// worker use), loaded in `beforeAll`, so a project without it is told what to install.
import type { SetupServer as SetupServerApi } from 'msw/node';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
// The package's own entry (built, `./index.js`): the same emulator core, and the same FixtureBuilder class, as a test's `import 'gitlab-emulator'`.
import { createEmulator, FixtureBuilder, type Emulator, type EmulatorOptions, type Fixture, type ListenOptions } from '../index.js';

/** What `useGitlabEmulator` throws where msw is not installed. */
export const MSW_MISSING = 'gitlab-emulator/vitest needs msw, which this project does not have: install it with `npm i -D msw` (the package is installed with `npm i -D gitlab-emulator msw`)';

/** msw's node server and the emulator's handlers, or the message above. */
async function loadMsw(): Promise<[typeof import('msw/node'), typeof import('./msw.js')]> {
  try {
    return await Promise.all([import('msw/node'), import('./msw.js')]);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && /['"]msw['"/]/.test(String((e as Error).message))) throw new Error(MSW_MISSING, { cause: e });
    throw e;
  }
}

export interface GitlabEmulatorSetup extends Omit<EmulatorOptions, 'fixture'> {
  /** The world to start each test from: data or a `fixture()` builder; the default world when absent. */
  fixture?: Fixture | FixtureBuilder;
  /** What MSW does with a request the emulator does not answer (another host): `'error'` by default. */
  onUnhandledRequest?: 'error' | 'warn' | 'bypass';
  /**
   * Take a world on a shared server instead of an emulator in this process: `true` for the
   * server `gitlabEmulatorGlobalSetup` started (or `GITLAB_EMULATOR_URL`), or where it is and
   * the world's name. The name is `vitest-<VITEST_POOL_ID>` by default: one world per worker,
   * reused by each file the worker runs. No MSW: clients reach `baseUrl` over HTTP, and
   * `emulator` and `server` are not there (drive the world through its control API,
   * `${baseUrl}/-/emulator/...`). `controlToken` is sent to a server that asks for one.
   */
  world?: true | { server?: string; name?: string };
}

export interface GitlabEmulatorHandle {
  /** The emulator (available from `beforeAll` on). */
  readonly emulator: Emulator;
  /** The MSW server (available from `beforeAll` on). */
  readonly server: SetupServerApi;
  /** Where the emulator answers: `https://gitlab.example.com` unless `baseUrl` says otherwise. */
  readonly baseUrl: string;
  /** The API's root: `${baseUrl}/api/v4`. */
  readonly apiUrl: string;
  /** The world as the test has made it, as a fixture: `useGitlabEmulator({ fixture })` of it starts from that world. */
  exportFixture(): Promise<Fixture>;
  /** The world's name, when the setup took a world on a shared server. */
  readonly world?: string;
}

/** The key under which `gitlabEmulatorGlobalSetup` provides the shared server's URL (`inject`). */
export const SHARED_SERVER_KEY = 'gitlabEmulatorUrl';

/** What vitest's `globalSetup` hands its function: the project, to provide values to the tests. */
interface ProvidingProject {
  provide(key: string, value: unknown): void;
}

/**
 * A `globalSetup` that starts one server for the whole run (`export default
 * gitlabEmulatorGlobalSetup()` in the file `globalSetup` names), for `useGitlabEmulator({ world:
 * true })` to take a world on per worker; it provides the URL to the tests (and sets
 * `GITLAB_EMULATOR_URL`) and closes the server after the run.
 */
export function gitlabEmulatorGlobalSetup(options: Omit<GitlabEmulatorSetup, 'world' | 'onUnhandledRequest'> & { listen?: ListenOptions } = {}) {
  return async (project?: ProvidingProject): Promise<() => Promise<void>> => {
    const { fixture, listen, ...rest } = options;
    const emulator = await createEmulator({ ...rest, ...(fixture !== undefined ? { fixture: fixtureOf(fixture) } : {}) });
    const server = await emulator.listen(listen);
    project?.provide(SHARED_SERVER_KEY, server.url);
    process.env.GITLAB_EMULATOR_URL = server.url;
    return () => server.close();
  };
}

/** The shared server: as given, provided by the global setup, or from the environment. */
function sharedServer(given: string | undefined): string {
  let provided: unknown;
  try {
    provided = (inject as (key: string) => unknown)(SHARED_SERVER_KEY);
  } catch {
    provided = undefined; // outside a test run
  }
  const url = given ?? (typeof provided === 'string' ? provided : undefined) ?? process.env.GITLAB_EMULATOR_URL;
  if (!url) {
    throw new Error(
      'useGitlabEmulator({ world }): no shared server: give world.server, run gitlabEmulatorGlobalSetup() as a globalSetup, or set GITLAB_EMULATOR_URL',
    );
  }
  return url.replace(/\/+$/, '');
}

/** A world per worker on a shared server: made before all tests, reset before each, removed after all. */
function useSharedWorld(setup: GitlabEmulatorSetup, world: true | { server?: string; name?: string }): GitlabEmulatorHandle {
  const server = sharedServer(world === true ? undefined : world.server);
  const name = (world === true ? undefined : world.name) ?? `vitest-${process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? process.pid}`;
  const baseUrl = `${server}/-/worlds/${name}`;
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (setup.controlToken) headers.Authorization = `Bearer ${setup.controlToken}`;
  const control = async (method: string, url: string, body?: unknown, ok: number[] = [200, 201, 204]) => {
    const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!ok.includes(res.status)) throw new Error(`useGitlabEmulator({ world }): ${method} ${url} answered ${res.status}: ${await res.text()}`);
    return res.status;
  };
  const fixture = setup.fixture === undefined ? undefined : fixtureOf(setup.fixture);
  const create = () => control('POST', `${server}/-/emulator/worlds`, { name, ...(fixture !== undefined ? { fixture } : {}) }, [201, 409]);
  beforeAll(async () => {
    // A world of this name left by an earlier file of the worker (or a run that stopped) is made anew, from this file's fixture.
    if ((await create()) === 409) {
      await control('DELETE', `${server}/-/emulator/worlds/${name}`, undefined, [204, 404]);
      await control('POST', `${server}/-/emulator/worlds`, { name, ...(fixture !== undefined ? { fixture } : {}) }, [201]);
    }
  });
  beforeEach(async () => {
    await control('POST', `${baseUrl}/-/emulator/reset`);
  });
  afterAll(async () => {
    await control('DELETE', `${server}/-/emulator/worlds/${name}`, undefined, [204, 404]);
  });
  const absent = (what: string): never => {
    throw new Error(`useGitlabEmulator({ world }): the ${what} runs in the shared server's process; drive the world through ${baseUrl}/-/emulator/...`);
  };
  return {
    get emulator(): Emulator {
      return absent('emulator');
    },
    get server(): SetupServerApi {
      return absent('MSW server');
    },
    baseUrl,
    apiUrl: `${baseUrl}/api/v4`,
    async exportFixture() {
      const res = await fetch(`${baseUrl}/-/emulator/fixture`, { headers });
      if (res.status !== 200) throw new Error(`useGitlabEmulator({ world }): GET ${baseUrl}/-/emulator/fixture answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as Fixture;
    },
    world: name,
  };
}

/**
 * Sets up an emulator for the test file (call it at the top level or in a `describe`): the MSW
 * server intercepts `fetch` to `baseUrl` before all tests, the seeded world is restored before
 * each one, and the server closes after all of them.
 */
export function useGitlabEmulator(setup: GitlabEmulatorSetup = {}): GitlabEmulatorHandle {
  if (setup.world) return useSharedWorld(setup, setup.world);
  const { fixture, onUnhandledRequest = 'error', world: _world, ...options } = setup;
  const baseUrl = (options.baseUrl ?? 'https://gitlab.example.com').replace(/\/+$/, '');
  let emulator: Emulator | undefined;
  let server: SetupServerApi | undefined;
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`useGitlabEmulator(): the ${what} exists from beforeAll on; read it inside a test or a hook`);
    return value;
  };
  beforeAll(async () => {
    const [{ setupServer }, { handlers }] = await loadMsw();
    emulator = await createEmulator({ ...options, ...(fixture !== undefined ? { fixture: fixtureOf(fixture) } : {}) });
    const s = setupServer(...handlers(emulator));
    s.listen({ onUnhandledRequest });
    server = s;
  });
  beforeEach(() => {
    emulator!.reset();
    emulator!.journal.clear();
    emulator!.faults.clear();
  });
  afterAll(() => {
    server?.close();
  });
  return {
    get emulator() {
      return ready(emulator, 'emulator');
    },
    get server() {
      return ready(server, 'MSW server');
    },
    baseUrl,
    apiUrl: `${baseUrl}/api/v4`,
    exportFixture: () => ready(emulator, 'emulator').exportFixture(),
  };
}

function fixtureOf(f: Fixture | FixtureBuilder): Fixture {
  return f instanceof FixtureBuilder ? f.build() : f;
}
