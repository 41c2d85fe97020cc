// The real `git` command against the emulator's server, for the git-over-HTTP tests: each run
// in a scratch HOME (no user or system config), never prompting for credentials.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether a `git` binary is installed (tests that drive it are skipped, saying so, without one). */
export const HAS_GIT = spawnSync('git', ['--version']).status === 0;
if (!HAS_GIT) console.warn('git is not installed: the tests that clone and push with the real git are skipped');

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A scratch directory with its own HOME; `run` runs git in it (or in a subdirectory). */
export class GitScratch {
  readonly dir = mkdtempSync(join(tmpdir(), 'gitlab-emulator-git-'));

  run(args: string[], cwd = '.', extraEnv: Record<string, string> = {}, input?: string): Promise<GitResult> {
    const env = this.env(extraEnv);
    return new Promise((resolve) => {
      // Never execFileSync: the server answering git runs in this very process.
      const child = execFile('git', args, { cwd: join(this.dir, cwd), env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
      if (input !== undefined) child.stdin!.end(input);
    });
  }

  /** What git writes to its standard output, as bytes (a pack); fails the test when git fails. */
  bytes(args: string[], cwd = '.', input?: string): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      const child = execFile('git', args, { cwd: join(this.dir, cwd), env: this.env({}), encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args.join(' ')} failed:\n${stderr.toString()}`));
        else resolve(new Uint8Array(stdout));
      });
      if (input !== undefined) child.stdin!.end(input);
    });
  }

  private env(extraEnv: Record<string, string>): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '',
      HOME: this.dir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_AUTHOR_NAME: 'Pat Pusher',
      GIT_AUTHOR_EMAIL: 'pat@example.com',
      GIT_COMMITTER_NAME: 'Cody Committer',
      GIT_COMMITTER_EMAIL: 'cody@example.com',
      GIT_AUTHOR_DATE: '2026-03-01T10:00:00Z',
      GIT_COMMITTER_DATE: '2026-03-01T11:00:00Z',
      ...extraEnv,
    };
  }

  /** Runs git and fails the test with its output when it fails. */
  async ok(args: string[], cwd = '.', extraEnv: Record<string, string> = {}, input?: string): Promise<string> {
    const r = await this.run(args, cwd, extraEnv, input);
    if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed (${r.code}):\n${r.stderr}${r.stdout}`);
    return r.stdout;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A clone URL with credentials in it, as scripts write them. */
export function withCredentials(url: string, user: string, password: string): string {
  const u = new URL(url);
  u.username = encodeURIComponent(user);
  u.password = encodeURIComponent(password);
  return u.toString();
}
