// What the command line asks for, read from its arguments and environment without side effects:
// `gitlab-emulator serve ...`, `--help`, `--version`. A mistake is a one-line message that names
// the flag and, for a mistyped one, the flag that was probably meant.
import type { Offering, Tier } from '../store/state.js';

export const USAGE = `usage: gitlab-emulator <command> [flags]

commands:
  serve             serve a world over HTTP: the default world, or --fixture
                    (flags without a command mean serve)
  import            write a fixture from a live GitLab (see import --help)
  help              print this help
  version           print the version

flags of serve:
  --port N          port to listen on (default 8080, or $PORT; 0 picks a free one)
  --host H          address to bind (default 127.0.0.1)
  --fixture FILE    a JSON fixture to seed the world from (or $GITLAB_EMULATOR_FIXTURE;
                    default: the built-in default world)
  --tier T          the instance's tier: free, premium or ultimate (default: the fixture's;
                    the default world is ultimate)
  --offering O      self-managed or hosted (default: the fixture's; the default world is
                    self-managed)
  --gitlab-version V
                    the GitLab release /version and /metadata report, such as 17.11.2
                    (default: the fixture's instance.version, else the imitated one)
  --base-url URL    the external URL the emulator renders in web_url and links
                    (default: the origin each request used)
  --control-token TOKEN
                    a secret the control API (/-/emulator) then asks of every request:
                    Authorization: Bearer TOKEN, or X-Emulator-Token: TOKEN
  --now TIME        start the clock at TIME, an ISO 8601 time such as 2025-01-01T09:00:00Z
                    (default: the real time)
  --freeze          a frozen clock: it stays at --now (or the start time) until the control
                    API or a test moves it
  --seed N          the seed of generated tokens and ids, a number from 0 to 4294967295
                    (default 1: the same world each start)
  --data-dir DIR    keep the world and its git objects in DIR: every write survives a kill,
                    and the next start on DIR serves the same world (a new DIR is seeded
                    with --fixture; see docs/data-dir.md)
  --log, --no-log   one line per request on stdout (on by default)

  -h, --help        print this help
  -v, --version     print the version

examples:
  gitlab-emulator serve
  gitlab-emulator serve --port 0 --fixture world.json --tier free
  gitlab-emulator --now 2025-01-01T09:00:00Z --freeze --seed 7
  PORT=9000 gitlab-emulator serve --no-log`;

export const TIERS: readonly Tier[] = ['free', 'premium', 'ultimate'];
export const OFFERINGS: readonly Offering[] = ['self-managed', 'hosted'];

export interface ServeOptions {
  port: number;
  host: string;
  fixture?: string;
  tier?: Tier;
  offering?: Offering;
  gitlabVersion?: string;
  baseUrl?: string;
  controlToken?: string;
  /** The clock's start time (epoch milliseconds). */
  now?: number;
  freeze?: boolean;
  seed?: number;
  dataDir?: string;
  log: boolean;
}

export type Command = { kind: 'help' } | { kind: 'version' } | { kind: 'serve'; options: ServeOptions } | { kind: 'error'; message: string };

type FlagName = 'port' | 'host' | 'fixture' | 'tier' | 'offering' | 'gitlab-version' | 'base-url' | 'control-token' | 'data-dir' | 'log' | 'help' | 'version' | ClockFlag;
type ClockFlag = 'now' | 'freeze' | 'seed';

const VALUED: readonly FlagName[] = ['port', 'host', 'fixture', 'tier', 'offering', 'gitlab-version', 'base-url', 'control-token', 'data-dir', 'now', 'seed'];
const BOOLEAN: readonly FlagName[] = ['log', 'help', 'version', 'freeze'];
const SHORT: Record<string, FlagName> = { h: 'help', v: 'version' };
const COMMANDS = ['serve', 'help', 'version'];

/** Edit distance (insertions, deletions, substitutions, adjacent swaps). */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The nearest of `known` to `given`, when it is near enough to be a typo. */
export function nearest(given: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const dist = distance(given.toLowerCase(), k.toLowerCase());
    if (dist < bestDistance) [best, bestDistance] = [k, dist];
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(best.length / 3)) ? best : undefined;
}

const error = (message: string): Command => ({ kind: 'error', message });

/** Reads the arguments (without `node` and the script) and the environment. */
export function parseCommandLine(argv: readonly string[], env: Record<string, string | undefined> = {}): Command {
  const values = new Map<FlagName, string | boolean>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    let name: string;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq === -1 ? undefined : arg.slice(eq + 1);
    } else {
      const short = SHORT[arg.slice(1)];
      if (!short) return error(`unknown flag '${arg}'${hint(arg.slice(1))} (see --help)`);
      name = short;
    }
    if (name.startsWith('no-') && BOOLEAN.includes(name.slice(3) as FlagName)) {
      if (inline !== undefined) return error(`--${name} takes no value`);
      values.set(name.slice(3) as FlagName, false);
      continue;
    }
    if (BOOLEAN.includes(name as FlagName)) {
      if (inline !== undefined) return error(`--${name} takes no value`);
      values.set(name as FlagName, true);
      continue;
    }
    if (!VALUED.includes(name as FlagName)) return error(`unknown flag '--${name}'${hint(name)} (see --help)`);
    const value = inline ?? argv[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) return error(`--${name} needs a value (see --help)`);
    values.set(name as FlagName, value);
  }
  if (values.get('help') === true) return { kind: 'help' };
  if (values.get('version') === true) return { kind: 'version' };
  // Flags without a command mean serve (`gitlab-emulator --port 1234`); nothing at all is the help.
  if (positionals.length === 0 && values.size === 0) return { kind: 'help' };
  const [command, ...rest] = positionals.length === 0 ? ['serve'] : positionals;
  if (!COMMANDS.includes(command!)) {
    const near = nearest(command!, COMMANDS);
    return error(`unknown command '${command}'${near ? `; did you mean '${near}'?` : `; to serve a world: gitlab-emulator serve [flags]`} (see --help)`);
  }
  if (rest.length > 0) return error(`unexpected argument '${rest[0]}' after '${command}' (see --help)`);
  if (command === 'help') return { kind: 'help' };
  if (command === 'version') return { kind: 'version' };

  const str = (name: FlagName) => values.get(name) as string | undefined;
  const portText = str('port') ?? env.PORT ?? '8080';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) return error(`--port must be a number from 0 to 65535, not '${portText}'${str('port') === undefined ? ' (from $PORT)' : ''}`);
  const baseUrl = str('base-url');
  if (baseUrl !== undefined && !/^https?:\/\/[^/]+/.test(baseUrl)) return error(`--base-url must be an http(s) URL, not '${baseUrl}'`);
  const controlToken = str('control-token');
  if (controlToken !== undefined && !/^\S+$/.test(controlToken)) return error('--control-token must be a non-empty token without spaces');
  const tier = str('tier');
  if (tier !== undefined && !TIERS.includes(tier as Tier)) return error(`--tier must be one of ${TIERS.join(', ')}, not '${tier}'${hintOf(tier, TIERS)}`);
  const offering = str('offering');
  if (offering !== undefined && !OFFERINGS.includes(offering as Offering)) {
    return error(`--offering must be one of ${OFFERINGS.join(', ')}, not '${offering}'${hintOf(offering, OFFERINGS)}`);
  }
  const gitlabVersion = str('gitlab-version');
  if (gitlabVersion !== undefined && !/^\d{1,3}\.\d{1,3}\.\d{1,3}(?:-[0-9A-Za-z.]{1,32})?$/.test(gitlabVersion)) {
    return error(`--gitlab-version must be a GitLab release such as 17.11.2, not '${gitlabVersion}'`);
  }
  const fixture = str('fixture') ?? (env.GITLAB_EMULATOR_FIXTURE || undefined);
  const clock = clockOptions(str('now'), values.get('freeze') === true, str('seed'));
  if (typeof clock === 'string') return error(clock);
  return {
    kind: 'serve',
    options: {
      port,
      host: str('host') ?? '127.0.0.1',
      ...(fixture !== undefined ? { fixture } : {}),
      ...(tier !== undefined ? { tier: tier as Tier } : {}),
      ...(offering !== undefined ? { offering: offering as Offering } : {}),
      ...(gitlabVersion !== undefined ? { gitlabVersion } : {}),
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      ...(controlToken !== undefined ? { controlToken } : {}),
      ...clock,
      ...(str('data-dir') !== undefined ? { dataDir: str('data-dir') } : {}),
      log: values.get('log') !== false,
    },
  };
}

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** `--now`, `--freeze` and `--seed` as options, or the message of the first that is wrong. */
function clockOptions(now: string | undefined, freeze: boolean, seed: string | undefined): Pick<ServeOptions, 'now' | 'freeze' | 'seed'> | string {
  const out: Pick<ServeOptions, 'now' | 'freeze' | 'seed'> = {};
  if (now !== undefined) {
    const m = ISO_TIME.exec(now.trim());
    const ms = m ? Date.parse(m[4] === undefined ? `${now.trim()}T00:00:00Z` : m[7] === undefined ? `${now.trim()}Z` : now.trim()) : NaN;
    const real = m !== null && Number.isFinite(ms) && realDate(Number(m[1]), Number(m[2]), Number(m[3])) && Number(m[4] ?? 0) < 24 && Number(m[5] ?? 0) < 60 && Number(m[6] ?? 0) < 60;
    if (!real || ms < 0) return `--now must be an ISO 8601 time from 1970 on, such as 2025-01-01T09:00:00Z or 2025-01-01, not '${now}'`;
    out.now = ms;
  }
  if (freeze) out.freeze = true;
  if (seed !== undefined) {
    if (!/^\d{1,10}$/.test(seed) || Number(seed) > 0xffffffff) return `--seed must be a whole number from 0 to 4294967295, not '${seed}'`;
    out.seed = Number(seed);
  }
  return out;
}

/** A day that is on the calendar (no February 30th). */
function realDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

const FLAGS = [...VALUED, ...BOOLEAN, ...BOOLEAN.filter((b) => b === 'log').map((b) => `no-${b}`)];

function hint(name: string): string {
  const near = nearest(name, FLAGS);
  return near ? `; did you mean '--${near}'?` : '';
}

function hintOf(value: string, known: readonly string[]): string {
  const near = nearest(value, known);
  return near ? `; did you mean '${near}'?` : '';
}
