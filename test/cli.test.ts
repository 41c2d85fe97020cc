// The command line: `gitlab-emulator serve` prints its URL and the admin token, serves the
// default world, stops cleanly on a signal, and refuses bad input with one line.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = join(import.meta.dirname, '..', 'src', 'transports', 'cli.ts');

function run(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = (re: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const m = stdout.match(re);
        if (m) resolve(m);
      };
      child.stdout.on('data', check);
      void exited.then(() => reject(new Error(`exited before printing ${re}: ${stderr}`)));
      check();
    });
  return { child, exited, line, output: () => ({ stdout, stderr }) };
}

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

  it.each([
    [['serve', '--bogus'], /Unknown option '--bogus'/],
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
