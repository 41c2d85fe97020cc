// The command line as a new user meets it: flags alone serve, an unknown command names `serve`,
// the start lines name the inspector, --now/--freeze/--seed choose the clock and the generated
// tokens, and a busy port or a missing fixture file says what to do.
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/transports/cli-options.js';
import { runCli } from './support/cli.js';

const run = runCli;

const ROOT_TOKEN = 'glpat-emulator-root-token';

async function newToken(url: string): Promise<string> {
  const res = await fetch(`${url}/api/v4/users/1/personal_access_tokens`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'ci', scopes: ['api'], expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

describe('gitlab-emulator as a new user runs it', () => {
  it('serves with flags and no command, printing the inspector URL next to the start line', async () => {
    const p = run(['--port', '0', '--no-log']);
    const [, url] = await p.line(/^listening on (http:\/\/127\.0\.0\.1:\d+)$/m);
    const [, inspector] = await p.line(/^inspector: (\S+)$/m);
    expect(inspector).toBe(`${url}/-/emulator`);
    const page = await fetch(inspector!, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const projects = (await (await fetch(`${url}/api/v4/projects`)).json()) as { path_with_namespace: string }[];
    expect(projects.map((x) => x.path_with_namespace)).toContain('acme/website');
    expect(await p.stop()).toBe(0);
  });

  it('refuses an unknown command non-zero, naming serve', async () => {
    const p = run(['explode']);
    expect(await p.exited).toBe(2);
    expect(p.output().stderr).toMatch(/unknown command 'explode'.*gitlab-emulator serve/);
  });

  it('--now and --freeze give a frozen clock at the chosen time, which the world writes', async () => {
    const p = run(['serve', '--port', '0', '--no-log', '--now', '2025-03-04T05:06:07Z', '--freeze']);
    const [, url] = await p.line(/^listening on (\S+)$/m);
    const clock = (await (await fetch(`${url}/-/emulator/clock`)).json()) as { now: string; frozen: boolean };
    expect(clock).toMatchObject({ now: '2025-03-04T05:06:07.000Z', frozen: true });
    const issue = await fetch(`${url}/api/v4/projects/acme%2Fwebsite/issues`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'dated' }),
    });
    expect(((await issue.json()) as { created_at: string }).created_at).toBe('2025-03-04T05:06:07.000Z');
    expect(await p.stop()).toBe(0);
  });

  it('--now alone starts a running clock there', async () => {
    const p = run(['--port', '0', '--no-log', '--now', '2024-02-29']);
    const [, url] = await p.line(/^listening on (\S+)$/m);
    const clock = (await (await fetch(`${url}/-/emulator/clock`)).json()) as { now: string; frozen: boolean };
    expect(clock.frozen).toBe(false);
    expect(Date.parse(clock.now) - Date.parse('2024-02-29T00:00:00Z')).toBeGreaterThanOrEqual(0);
    expect(Date.parse(clock.now) - Date.parse('2024-02-29T00:00:00Z')).toBeLessThan(60_000);
    expect(await p.stop()).toBe(0);
  });

  it('--seed N chooses the generated tokens: the same seed the same token, another seed another', async () => {
    const tokens: string[] = [];
    for (const seed of ['7', '7', '8']) {
      const p = run(['--port', '0', '--no-log', '--seed', seed]);
      const [, url] = await p.line(/^listening on (\S+)$/m);
      tokens.push(await newToken(url!));
      expect(await p.stop()).toBe(0);
    }
    expect(tokens[0]).toBe(tokens[1]);
    expect(tokens[2]).not.toBe(tokens[0]);
  }, 90_000);

  it('a port in use says to pick another or --port 0, and how to find the process', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const p = run(['--port', String(port), '--no-log']);
      expect(await p.exited).toBe(1);
      const { stderr } = p.output();
      expect(stderr).toMatch(/EADDRINUSE/);
      expect(stderr).toMatch(/--port 0/);
      expect(stderr).toMatch(new RegExp(`lsof -i :${port}`));
      expect(stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      holder.close();
    }
  });

  it('a missing fixture file says so and how to serve the default world', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gle-fh-'));
    try {
      const p = run(['--fixture', join(dir, 'nope.json')]);
      expect(await p.exited).toBe(1);
      const { stderr } = p.output();
      expect(stderr).toMatch(/cannot read fixture .*nope\.json: ENOENT \(no such file: check the path.*leave out --fixture/);
      expect(stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('parseCommandLine: clock, seed and the implied serve', () => {
  it('flags without a command are serve; nothing at all is the help', () => {
    expect(parseCommandLine(['--port', '1234'], {})).toMatchObject({ kind: 'serve', options: { port: 1234 } });
    expect(parseCommandLine(['--freeze'], {})).toMatchObject({ kind: 'serve', options: { freeze: true } });
    expect(parseCommandLine([], {})).toEqual({ kind: 'help' });
  });

  it('reads --now as ISO 8601 (a date, a UTC time, an offset) and --seed as a whole number', () => {
    const now = (v: string) => (parseCommandLine(['--now', v], {}) as { options: { now: number } }).options.now;
    expect(now('2025-01-01')).toBe(Date.UTC(2025, 0, 1));
    expect(now('2025-01-01T09:00:00Z')).toBe(Date.UTC(2025, 0, 1, 9));
    expect(now('2025-01-01T09:00')).toBe(Date.UTC(2025, 0, 1, 9));
    expect(now('2025-01-01T09:00:00+02:00')).toBe(Date.UTC(2025, 0, 1, 7));
    expect(parseCommandLine(['serve', '--seed', '42'], {})).toMatchObject({ options: { seed: 42 } });
    expect(parseCommandLine(['serve', '--seed', '0'], {})).toMatchObject({ options: { seed: 0 } });
  });

  it.each([
    [['--now', 'tomorrow'], "--now must be an ISO 8601 time from 1970 on, such as 2025-01-01T09:00:00Z or 2025-01-01, not 'tomorrow'"],
    [['--now', '2025-02-30'], "--now must be an ISO 8601 time from 1970 on, such as 2025-01-01T09:00:00Z or 2025-01-01, not '2025-02-30'"],
    [['--now', '2025-01-01T25:00:00Z'], "--now must be an ISO 8601 time from 1970 on, such as 2025-01-01T09:00:00Z or 2025-01-01, not '2025-01-01T25:00:00Z'"],
    [['--now', '1969-12-31'], "--now must be an ISO 8601 time from 1970 on, such as 2025-01-01T09:00:00Z or 2025-01-01, not '1969-12-31'"],
    [['--seed', '-1'], "--seed must be a whole number from 0 to 4294967295, not '-1'"],
    [['--seed', '1.5'], "--seed must be a whole number from 0 to 4294967295, not '1.5'"],
    [['--seed', '4294967296'], "--seed must be a whole number from 0 to 4294967295, not '4294967296'"],
    [['--freeze=yes'], '--freeze takes no value'],
    [['explode', '--port', '1'], "unknown command 'explode'; to serve a world: gitlab-emulator serve [flags] (see --help)"],
  ])('refuses %j', (argv, message) => {
    expect(parseCommandLine(argv, {})).toEqual({ kind: 'error', message });
  });
});
