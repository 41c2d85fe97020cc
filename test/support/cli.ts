// The built CLI (dist/cli.js, as `npx gitlab-emulator` runs it; built before the tests by
// test/support/build.ts) in a child process, as the CLI tests start it: its output as it comes, a
// wait for a line, its exit, and a SIGTERM.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');

export function runCli(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  /** The first match of `re` in what it printed, or a failure naming `re` once it exits without it. */
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
  const stop = async () => {
    child.kill('SIGTERM');
    return exited;
  };
  return { child, exited, line, stop, output: () => ({ stdout, stderr }) };
}
