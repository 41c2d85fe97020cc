// `gitlab-emulator/vitest`: one call sets up an emulator behind MSW for a test file. Before all
// tests it seeds the fixture and starts intercepting `fetch`; before each test it puts the world
// back as seeded (clock, journal and faults too); after all it stops intercepting.
import { setupServer } from 'msw/node';

type SetupServerApi = ReturnType<typeof setupServer>;
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createEmulator, type Emulator, type EmulatorOptions } from '../emulator.js';
import { fixtureOf, type FixtureBuilder } from '../families/fixture-builder.js';
import type { Fixture } from '../families/world.js';
import { handlers } from './msw.js';

export interface GitlabEmulatorSetup extends Omit<EmulatorOptions, 'fixture'> {
  /** The world to start each test from: data or a `fixture()` builder; the default world when absent. */
  fixture?: Fixture | FixtureBuilder;
  /** What MSW does with a request the emulator does not answer (another host): `'error'` by default. */
  onUnhandledRequest?: 'error' | 'warn' | 'bypass';
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
}

/**
 * Sets up an emulator for the test file (call it at the top level or in a `describe`): the MSW
 * server intercepts `fetch` to `baseUrl` before all tests, the seeded world is restored before
 * each one, and the server closes after all of them.
 */
export function useGitlabEmulator(setup: GitlabEmulatorSetup = {}): GitlabEmulatorHandle {
  const { fixture, onUnhandledRequest = 'error', ...options } = setup;
  const baseUrl = (options.baseUrl ?? 'https://gitlab.example.com').replace(/\/+$/, '');
  let emulator: Emulator | undefined;
  let server: SetupServerApi | undefined;
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`useGitlabEmulator(): the ${what} exists from beforeAll on; read it inside a test or a hook`);
    return value;
  };
  beforeAll(async () => {
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
