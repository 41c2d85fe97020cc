// Several worlds on one emulator: each a whole emulator of its own (world, clock, ids, journal,
// snapshots, faults, control API) served under `/-/worlds/NAME`, as a GitLab under a relative
// URL root is: its entities' URLs, git over HTTP and its control API all carry the prefix. The
// control API of the emulator that holds them creates, lists and removes them
// (`/-/emulator/worlds`); a world holds no worlds of its own.
import { EmulatorError, FixtureError } from '../core/errors.js';
import { controlError, isHash, type ControlRoute } from '../http/control-route.js';
import { json, noContent } from '../http/route.js';

/** Where the worlds live: `/-/worlds/NAME/...`. */
export const WORLDS_PATH = '/-/worlds/';

/** A world's name: what a path segment holds as it is, short enough for a URL. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export const NAME_RULE = "name must be 1 to 64 letters, digits, '_', '-' or '.', starting with a letter or a digit";

/** The world a path is under, and the path within it; undefined for a path under no world. */
export function worldOf(pathname: string): { name: string; root: string; rest: string } | undefined {
  if (!pathname.startsWith(WORLDS_PATH)) return undefined;
  const end = pathname.indexOf('/', WORLDS_PATH.length);
  const name = pathname.slice(WORLDS_PATH.length, end < 0 ? undefined : end);
  if (!NAME.test(name)) return undefined;
  return { name, root: WORLDS_PATH + name, rest: end < 0 ? '/' : pathname.slice(end) };
}

/** What the control API drives of the worlds. */
export interface WorldsControl {
  names(): string[];
  /** Makes a world: from the seeded world, or from `fixture`. Throws a 409 for a name taken. */
  create(name: string, fixture?: unknown): Promise<void>;
  /** Removes a world; false when there is none of that name. */
  remove(name: string): boolean;
}

/**
 * The worlds of one emulator, by name. A name is taken from the moment a world is asked for
 * (seeding a fixture awaits), so two requests for one name make one world; a world that fails to
 * seed leaves the name free.
 */
export class Worlds<W> implements WorldsControl {
  #worlds = new Map<string, W>();
  #making = new Set<string>();

  constructor(
    private readonly make: (name: string, fixture: unknown) => Promise<W>,
    /** Lets go of what a removed world holds outside itself (its git objects). */
    private readonly dispose: (world: W) => void = () => {},
  ) {}

  get(name: string): W | undefined {
    return this.#worlds.get(name);
  }

  get size(): number {
    return this.#worlds.size;
  }

  names(): string[] {
    return [...this.#worlds.keys()].sort();
  }

  async create(name: string, fixture?: unknown): Promise<void> {
    if (!NAME.test(name)) throw new EmulatorError(NAME_RULE);
    if (this.#worlds.has(name) || this.#making.has(name)) throw controlError(409, `world '${name}' already exists`);
    this.#making.add(name);
    try {
      this.#worlds.set(name, await this.make(name, fixture));
    } finally {
      this.#making.delete(name);
    }
  }

  remove(name: string): boolean {
    const world = this.#worlds.get(name);
    if (world === undefined) return false;
    this.#worlds.delete(name);
    this.dispose(world);
    return true;
  }
}

/** `{name, url}`: where a world answers, under the URL its creator reached the emulator at. */
const described = (base: string, name: string) => ({ name, url: `${base}${WORLDS_PATH}${name}` });

/** The control API's endpoints for the worlds; 404 (an unknown endpoint) inside a world. */
export function worldsControl(worlds: WorldsControl | undefined): ControlRoute[] {
  const held = (path: string): WorldsControl => {
    if (!worlds) throw controlError(404, `unknown control endpoint /-/emulator${path}: a world holds no worlds`);
    return worlds;
  };
  return [
    { method: 'GET', path: '/worlds', handler: (ctx) => json(held('/worlds').names().map((name) => described(ctx.webBase, name))) },
    {
      method: 'POST',
      path: '/worlds',
      handler: async (ctx) => {
        const w = held('/worlds');
        const { name, fixture, ...rest } = ctx.raw;
        const extra = Object.keys(rest)[0];
        if (extra !== undefined) throw new EmulatorError(`worlds.${extra} is not one of name, fixture`);
        if (name === undefined) throw new EmulatorError('worlds.name is required');
        if (typeof name !== 'string' || !NAME.test(name)) throw new EmulatorError(`worlds.${NAME_RULE}`);
        if (fixture !== undefined && !isHash(fixture)) throw new EmulatorError('worlds.fixture must be an object (a fixture)');
        try {
          await w.create(name, fixture);
        } catch (err) {
          if (err instanceof FixtureError) throw new EmulatorError(`invalid fixture: ${err.text}`);
          if (err instanceof EmulatorError || !(err instanceof Error) || 'status' in err) throw err;
          throw new EmulatorError(`invalid fixture: ${err.message}`);
        }
        return json(described(ctx.webBase, name), 201);
      },
    },
    {
      method: 'GET',
      path: '/worlds/:name',
      handler: (ctx) => {
        const name = String(ctx.raw.name);
        if (!held(`/worlds/${name}`).names().includes(name)) throw controlError(404, `no world '${name}'`);
        return json(described(ctx.webBase, name));
      },
    },
    {
      method: 'DELETE',
      path: '/worlds/:name',
      handler: (ctx) => {
        const name = String(ctx.raw.name);
        if (!held(`/worlds/${name}`).remove(name)) throw controlError(404, `no world '${name}'`);
        return noContent();
      },
    },
  ];
}
