#!/usr/bin/env node
// `gitlab-emulator serve [--port N] [--host H] [--fixture FILE] [--base-url URL] [--control-token TOKEN]`
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createEmulator, DEFAULT_FIXTURE, type Emulator } from '../emulator.js';
import type { Fixture } from '../families/world.js';
import { tget, tvalues } from '../store/table.js';
import { isLoopbackHost } from './local-only.js';

const USAGE = `usage: gitlab-emulator serve [--port N] [--host H] [--fixture FILE] [--base-url URL] [--control-token TOKEN]

  --port N          port to listen on (default 8080; 0 picks a free one)
  --host H          address to bind (default 127.0.0.1)
  --fixture FILE    a JSON fixture to seed the world from (default: the built-in default world)
  --base-url URL    the external URL the emulator renders in web_url and links
                    (default: the origin each request used)
  --control-token TOKEN
                    a secret the control API (/-/emulator) then asks of every request:
                    Authorization: Bearer TOKEN, or X-Emulator-Token: TOKEN`;

function die(message: string, code = 2): never {
  process.stderr.write(`gitlab-emulator: ${message}\n`);
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        port: { type: 'string', default: '8080' },
        host: { type: 'string', default: '127.0.0.1' },
        fixture: { type: 'string' },
        'base-url': { type: 'string' },
        'control-token': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    die(`${(e as Error).message.split('\n')[0]} (see --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const command = positionals[0] ?? 'serve';
  if (command !== 'serve' || positionals.length > 1) die(`unknown command '${positionals.join(' ')}' (see --help)`);
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port!) || port > 65535) die(`--port must be a number from 0 to 65535, not '${values.port}'`);
  const baseUrl = values['base-url'];
  if (baseUrl !== undefined && !/^https?:\/\/[^/]+/.test(baseUrl)) die(`--base-url must be an http(s) URL, not '${baseUrl}'`);
  const controlToken = values['control-token'];
  if (controlToken !== undefined && !/^\S+$/.test(controlToken)) die('--control-token must be a non-empty token without spaces');

  let fixture: Fixture = DEFAULT_FIXTURE;
  if (values.fixture) {
    let text: string;
    try {
      text = await readFile(values.fixture, 'utf8');
    } catch (e) {
      die(`cannot read fixture ${values.fixture}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 1);
    }
    try {
      fixture = JSON.parse(text) as Fixture;
    } catch (e) {
      die(`fixture ${values.fixture} is not valid JSON: ${(e as Error).message}`, 1);
    }
  }
  let emulator;
  try {
    emulator = await createEmulator({ fixture, ...(baseUrl ? { baseUrl, externalUrl: baseUrl } : {}), ...(controlToken ? { controlToken } : {}) });
  } catch (e) {
    die(`fixture ${values.fixture ?? '(default)'}: ${(e as Error).message.replace(/^\[gitlab-emulator\] /, '')}`, 1);
  }
  if (!isLoopbackHost(values.host!)) {
    process.stderr.write(
      `gitlab-emulator: warning: --host ${values.host} is not a loopback address: other machines can reach the API and the control API ` +
        `(/-/emulator: reset, seed, sessions)${controlToken ? '' : '; set --control-token to guard the control API'}\n`,
    );
  }
  let server;
  try {
    server = await emulator.listen({ port, host: values.host });
  } catch (e) {
    die(`cannot listen on ${values.host}:${port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 1);
  }
  process.stdout.write(`listening on ${server.url}\n`);
  const token = adminToken(emulator);
  process.stdout.write(token ? `admin token: ${token}\n` : 'admin token: none (the fixture gives no administrator a token)\n');
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The oldest usable token of an administrator, so a person can start with curl. */
function adminToken(emulator: Emulator): string | undefined {
  const { state } = emulator;
  const usable = [...tvalues(state.tokens)]
    .filter((t) => (t.kind === 'personal' || t.kind === 'oauth') && !t.revoked && tget(state.users, t.userId)?.admin)
    .sort((a, b) => a.id - b.id);
  return usable[0]?.token;
}

void main(process.argv.slice(2));
