#!/usr/bin/env node
// `gitlab-emulator serve [flags]`, `--help`, `--version`: see USAGE in cli-options.ts. Built, it
// is part of dist/core.cjs, which dist/cli.js (cli-launch.ts) runs with V8's code cache; from source
// (`tsx src/transports/cli.ts`) it runs itself.
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pkg from '../../package.json' with { type: 'json' };
import { createEmulator, DEFAULT_FIXTURE, type Emulator } from '../emulator.js';
import type { Fixture } from '../families/world.js';
import { formatRequest, RequestLogBuffer } from '../http/request-log.js';
import { jsonErrorAt } from '../core/json-position.js';
import { tget, tvalues } from '../store/table.js';
import { parseCommandLine, USAGE, type ServeOptions } from './cli-options.js';
import { isLoopbackHost } from './local-only.js';
import * as trieRouter from 'hono/router/trie-router';
import { provideModule } from '../core/lazy.js';

// The router every first answer builds: in the core bundle, and so in its code cache (see code-cache.ts).
provideModule('hono/router/trie-router', trieRouter);

function die(message: string, code = 2): never {
  process.stderr.write(`gitlab-emulator: ${message}\n`);
  process.exit(code);
}

/** What the launcher hears of a run: `serving` once a server listens. */
export interface CliHooks {
  serving?(): void;
}

export async function main(argv: string[], hooks: CliHooks = {}): Promise<void> {
  // `import` reads its own flags; its module is loaded only when it runs.
  if (argv[0] === 'import') process.exit(await (await import('../importer/index.js')).runImport(argv.slice(1)));
  const command = parseCommandLine(argv, process.env);
  switch (command.kind) {
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return;
    case 'version':
      process.stdout.write(`${pkg.version}\n`);
      return;
    case 'error':
      die(command.message);
    // eslint-disable-next-line no-fallthrough
    case 'serve':
      return serve(command.options, hooks);
  }
}

async function serve(options: ServeOptions, hooks: CliHooks): Promise<void> {
  let fixture: Fixture = DEFAULT_FIXTURE;
  if (options.fixture) {
    let text: string;
    try {
      text = await readFile(options.fixture, 'utf8');
    } catch (e) {
      die(`cannot read fixture ${options.fixture}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}${readRemedy(e as NodeJS.ErrnoException)}`, 1);
    }
    try {
      fixture = JSON.parse(text) as Fixture;
    } catch (e) {
      const at = jsonErrorAt(text);
      const where = at ? ` at line ${at.line}, column ${at.column}` : '';
      die(`fixture ${options.fixture} is not valid JSON${where}: ${(e as Error).message}`, 1);
    }
  }
  if (options.tier || options.offering || options.gitlabVersion) {
    // A fixture that is not an object stays as it is, for seeding to refuse it by name.
    const given = fixture;
    if (typeof given === 'object' && given !== null && !Array.isArray(given)) {
      const { tier, offering, gitlabVersion: version } = options;
      fixture = { ...given, instance: { ...given.instance, ...(tier ? { tier } : {}), ...(offering ? { offering } : {}), ...(version ? { version } : {}) } };
    }
  }
  const colour = process.stdout.isTTY === true && !process.env.NO_COLOR;
  // The log is written in batches, off the requests' path; whatever waits is written on exit.
  const log = new RequestLogBuffer(process.stdout);
  process.on('exit', () => log.flush());
  let emulator;
  try {
    emulator = await createEmulator({
      fixture,
      ...(options.baseUrl ? { baseUrl: options.baseUrl, externalUrl: options.baseUrl } : {}),
      ...(options.controlToken ? { controlToken: options.controlToken } : {}),
      ...(options.now !== undefined || options.freeze ? { clock: { ...(options.now !== undefined ? { now: options.now } : {}), frozen: options.freeze === true } } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.log ? { log: (line: string, event: Parameters<typeof formatRequest>[0]) => log.add(colour ? formatRequest(event, { colour }) : line) } : {}),
    });
  } catch (e) {
    const message = (e as Error).message.replace(/^\[gitlab-emulator\] /, '');
    if (message.startsWith('data directory ')) die(message, 1);
    die(`fixture ${options.fixture ?? '(default)'}: ${message}`, 1);
  }
  if (!isLoopbackHost(options.host)) {
    process.stderr.write(
      `gitlab-emulator: warning: --host ${options.host} is not a loopback address: other machines can reach the API and the control API ` +
        `(/-/emulator: reset, seed, sessions)${options.controlToken ? '' : '; set --control-token to guard the control API'}\n`,
    );
  }
  let server;
  try {
    server = await emulator.listen({ port: options.port, host: options.host });
  } catch (e) {
    die(`cannot listen on ${options.host}:${options.port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}${listenRemedy(e as NodeJS.ErrnoException, options.port)}`, 1);
  }
  const { tier, offering } = emulator.state.instance;
  process.stdout.write(`listening on ${server.url}\n`);
  process.stdout.write(`inspector: ${server.url}/-/emulator\n`);
  const token = adminToken(emulator);
  process.stdout.write(token ? `admin token: ${token}\n` : 'admin token: none (the fixture gives no administrator a token)\n');
  process.stdout.write(`instance: ${tier}, ${offering}${emulator.state.instance.version ? `, GitLab ${emulator.state.instance.version}` : ''}\n`);
  const stop = () => {
    log.flush();
    // With --data-dir, the world's snapshot is written before the process ends.
    void server.close().then(() => emulator.close()).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  hooks.serving?.();
}

/** What to do about a fixture file that cannot be read. */
function readRemedy(e: NodeJS.ErrnoException): string {
  if (e.code === 'ENOENT') return ` (no such file: check the path, relative to ${process.cwd()}, or leave out --fixture and $GITLAB_EMULATOR_FIXTURE to serve the default world)`;
  if (e.code === 'EISDIR') return ' (a directory: --fixture takes a JSON file)';
  if (e.code === 'EACCES') return ' (not readable by this user)';
  return '';
}

/** What to do about a port that cannot be had. */
function listenRemedy(e: NodeJS.ErrnoException, port: number): string {
  if (e.code === 'EADDRINUSE') {
    return ` (port ${port} is in use, perhaps by another gitlab-emulator started earlier: stop that process (lsof -i :${port} names it), or start with --port 0 for a free port or --port N for another)`;
  }
  if (e.code === 'EACCES') return ` (ports below 1024 need privileges: use --port 0 for a free port, or one from 1024 up)`;
  if (e.code === 'EADDRNOTAVAIL') return ' (no interface of this machine has that address: use --host 127.0.0.1, or 0.0.0.0 for every address)';
  return '';
}

/** The oldest usable token of an administrator, so a person can start with curl. */
function adminToken(emulator: Emulator): string | undefined {
  const { state } = emulator;
  const usable = [...tvalues(state.tokens)]
    .filter((t) => (t.kind === 'personal' || t.kind === 'oauth') && !t.revoked && tget(state.users, t.userId)?.admin)
    .sort((a, b) => a.id - b.id);
  return usable[0]?.token;
}

// Run from source: this file is the process's script. (A CommonJS build has no import.meta: the launcher calls main.)
const self: string | undefined = import.meta.url;
const script = process.argv[1];
if (self !== undefined && script !== undefined && (fileURLToPath(self) === script || fileURLToPath(self) === realpathOr(script))) void main(process.argv.slice(2));

/** The path with its links resolved (a script run through a link), or the path when it cannot be. */
function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
