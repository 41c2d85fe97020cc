// The command line: `gitlab-emulator serve` prints its URL and the admin token, serves the
// default world, stops cleanly on a signal, and refuses bad input with one line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };
import { parseCommandLine } from '../src/transports/cli-options.js';
import { runCli } from './support/cli.js';

const run = runCli;

describe('gitlab-emulator serve', () => {
  it('prints the URL and the admin token, serves the default world, and stops on SIGTERM', async () => {
    const p = run(['serve', '--port', '0']);
    const [, url] = await p.line(/^listening on (http:\/\/127\.0\.0\.1:\d+)$/m);
    const [, token] = await p.line(/^admin token: (\S+)$/m);
    const res = await fetch(`${url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': token! } });
    expect(await res.json()).toMatchObject({ username: 'root' });
    const projects = (await (await fetch(`${url}/api/v4/projects`)).json()) as { path_with_namespace: string }[];
    expect(projects.map((x) => x.path_with_namespace)).toEqual(['acme/website']);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('serves a fixture file with --fixture, rendering --base-url in links', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gle-'));
    const file = join(dir, 'world.json');
    writeFileSync(file, JSON.stringify({ users: [{ username: 'ci', admin: true, tokens: [{ token: 'ci-token' }] }] }));
    const p = run(['serve', '--port', '0', '--fixture', file, '--base-url', 'https://git.test']);
    const [, url] = await p.line(/^listening on (\S+)$/m);
    await p.line(/^admin token: ci-token$/m);
    const user = (await (await fetch(`${url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': 'ci-token' } })).json()) as { web_url: string };
    expect(user.web_url).toBe('https://git.test/ci');
    p.child.kill('SIGINT');
    expect(await p.exited).toBe(0);
  });

  it.concurrent.each([
    [['serve', '--bogus'], /unknown flag '--bogus'/],
    [['serve', '--prot', '0'], /unknown flag '--prot'; did you mean '--port'\?/],
    [['serve', '--port', 'abc'], /--port must be a number/],
    [['explode'], /unknown command 'explode'/],
    [['serve', '--fixture', '/nonexistent/world.json'], /cannot read fixture .*ENOENT/],
  ])('refuses %j with one line and a non-zero exit', async (args, message) => {
    const p = run(args);
    const code = await p.exited;
    const { stderr } = p.output();
    expect(code).not.toBe(0);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses a fixture that names an unknown user, saying which', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gle-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ groups: [{ path: 'gg', members: [{ user: 'ghost', access_level: 30 }] }] }));
    const p = run(['serve', '--fixture', file]);
    expect(await p.exited).toBe(1);
    expect(p.output().stderr).toMatch(/group 'gg' names unknown user 'ghost'/);
  });
});

describe('the command line talks to people', () => {
  it('prints its version and its help; bare, it prints help rather than serving', async () => {
    const version = run(['--version']);
    expect(await version.exited).toBe(0);
    expect(version.output().stdout.trim()).toBe(pkg.version);
    const bare = run([]);
    expect(await bare.exited).toBe(0);
    expect(bare.output().stdout).toMatch(/^usage: gitlab-emulator <command>/);
    expect(bare.output().stdout).toMatch(/--tier T/);
    expect(bare.output().stdout).not.toMatch(/listening on/);
  });

  it('logs each request with its status, user and time, says when a token matches no user or a path is not emulated, and runs at the asked tier', async () => {
    const p = run(['serve', '--port', '0', '--tier', 'premium', '--offering', 'hosted']);
    const [, url] = await p.line(/^listening on (\S+)$/m);
    await p.line(/^instance: premium, hosted$/m);
    const control = (await (await fetch(`${url}/-/emulator`)).json()) as { instance: unknown };
    expect(control.instance).toEqual({ tier: 'premium', offering: 'hosted' });
    await fetch(`${url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': 'glpat-emulator-alice-token' } });
    const denied = await fetch(`${url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': 'no-such-token' } });
    expect(await denied.json()).toEqual({ message: '401 Unauthorized' }); // the answer stays GitLab's
    const missing = await fetch(`${url}/api/v4/no/such/route`);
    expect(missing.headers.get('x-gitlab-emulator')).toBe('no-route');
    await p.line(/^GET\s+\/api\/v4\/user 200 alice [\d.]+ ms$/m);
    await p.line(/^GET\s+\/api\/v4\/user 401 anonymous [\d.]+ ms \(token matches no user\)$/m);
    await p.line(/^GET\s+\/api\/v4\/no\/such\/route 404 anonymous [\d.]+ ms \(not emulated\)$/m);
    expect(p.output().stdout).not.toMatch(/\u001b\[/); // no colours when stdout is not a terminal
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('reads PORT and GITLAB_EMULATOR_FIXTURE; --no-log keeps quiet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gle-'));
    const file = join(dir, 'world.json');
    writeFileSync(file, JSON.stringify({ users: [{ username: 'envy', admin: true, tokens: [{ token: 'envy-token' }] }] }));
    const p = run(['serve', '--no-log'], { PORT: '0', GITLAB_EMULATOR_FIXTURE: file });
    const [, url] = await p.line(/^listening on (\S+)$/m);
    await p.line(/^admin token: envy-token$/m);
    expect(url).not.toMatch(/:8080$/);
    expect(((await (await fetch(`${url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': 'envy-token' } })).json()) as { username: string }).username).toBe('envy');
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.output().stdout).not.toMatch(/^GET/m);
  });
});

describe('parseCommandLine', () => {
  const serve = (argv: string[], env = {}) => {
    const c = parseCommandLine(argv, env);
    if (c.kind !== 'serve') throw new Error(JSON.stringify(c));
    return c.options;
  };

  it('takes flags over the environment, and the defaults otherwise', () => {
    expect(serve(['serve'])).toEqual({ port: 8080, host: '127.0.0.1', log: true });
    expect(serve(['serve'], { PORT: '9000', GITLAB_EMULATOR_FIXTURE: 'w.json' })).toMatchObject({ port: 9000, fixture: 'w.json' });
    expect(serve(['serve', '--port=7000', '--fixture', 'x.json'], { PORT: '9000', GITLAB_EMULATOR_FIXTURE: 'w.json' })).toMatchObject({ port: 7000, fixture: 'x.json' });
    expect(serve(['serve', '--tier', 'free', '--offering=hosted', '--no-log'])).toMatchObject({ tier: 'free', offering: 'hosted', log: false });
  });

  it.each([
    [['serve', '--prot', '1'], "unknown flag '--prot'; did you mean '--port'? (see --help)"],
    [['serve', '--fixtures', 'a'], "unknown flag '--fixtures'; did you mean '--fixture'? (see --help)"],
    [['serve', '--control-tokn', 'a'], "unknown flag '--control-tokn'; did you mean '--control-token'? (see --help)"],
    [['serve', '--verbose'], "unknown flag '--verbose' (see --help)"],
    [['serve', '-x'], "unknown flag '-x' (see --help)"],
    [['serve', '--port'], '--port needs a value (see --help)'],
    [['serve', '--port', '--host', 'h'], '--port needs a value (see --help)'],
    [['serve', '--log=yes'], '--log takes no value'],
    [['server'], "unknown command 'server'; did you mean 'serve'? (see --help)"],
    [['serve', 'now'], "unexpected argument 'now' after 'serve' (see --help)"],
    [['serve', '--offering', 'saas'], "--offering must be one of self-managed, hosted, not 'saas'"],
    [['serve', '--port', '70000'], "--port must be a number from 0 to 65535, not '70000'"],
  ])('refuses %j: %s', (argv, message) => {
    expect(parseCommandLine(argv, {})).toEqual({ kind: 'error', message });
  });

  it('answers help and version before anything else', () => {
    expect(parseCommandLine([], {})).toEqual({ kind: 'help' });
    expect(parseCommandLine(['serve', '--help'], {})).toEqual({ kind: 'help' });
    expect(parseCommandLine(['-h'], {})).toEqual({ kind: 'help' });
    expect(parseCommandLine(['-v'], {})).toEqual({ kind: 'version' });
    expect(parseCommandLine(['version'], {})).toEqual({ kind: 'version' });
  });
});
