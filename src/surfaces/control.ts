// The control API, for tests that reach the emulator only over HTTP (other languages, CI):
// under /-/emulator/, a prefix no GitLab route uses. Documented in the README.
import type { Emulator } from '../emulator.js';
import type { FaultRule } from '../core/faults.js';
import type { Fixture } from '../families/world.js';
import { EmulatorError } from '../core/errors.js';

export const CONTROL_PREFIX = '/-/emulator';

const reply = (body: unknown, status = 200) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
  });
const fail = (status: number, message: string) => reply({ message }, status);

async function bodyOf(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === '') return {};
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SyntaxError('a JSON object is expected');
  return value as Record<string, unknown>;
}

function clockState(e: Emulator) {
  return { now: new Date(e.clock.now()).toISOString(), frozen: e.clock.frozen, pending_tasks: e.state.tasks.length };
}

function journalEntries(e: Emulator, limit: number) {
  return e.journal
    .entries()
    .slice(-limit)
    .map(({ before: _b, after: _a, ...rest }) => rest);
}

/** Seeds a fixture sent over HTTP: one of the wrong shape is the caller's mistake, a 400. */
async function seed(e: Emulator, fixture: Fixture) {
  try {
    return await e.seed(fixture);
  } catch (err) {
    if (err instanceof EmulatorError || !(err instanceof Error)) throw err;
    throw new EmulatorError(`invalid fixture: ${err.message}`);
  }
}

export async function handleControl(e: Emulator, request: Request): Promise<Response> {
  const url = new URL(request.url);
  let parts: string[];
  try {
    parts = url.pathname.slice(CONTROL_PREFIX.length).split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return fail(400, `undecodable path ${url.pathname}`);
  }
  const m = request.method.toUpperCase();
  const [head, name, action] = parts;
  try {
    if (head === undefined && m === 'GET') {
      return reply({
        base_url: e.baseUrl,
        clock: clockState(e),
        endpoints: ['reset', 'seed', 'snapshots', 'clock', 'journal', 'faults', 'instance', 'sessions'],
      });
    }
    if (head === 'reset' && m === 'POST') {
      e.reset();
      e.journal.clear();
      e.faults.clear();
      return reply(undefined, 204);
    }
    if (head === 'seed' && m === 'POST') return reply(await seed(e, (await bodyOf(request)) as Fixture), 201);
    if (head === 'snapshots') {
      if (!name && m === 'GET') return reply(e.snapshotNames());
      if (name && !action && (m === 'POST' || m === 'PUT')) {
        e.saveSnapshot(name);
        return reply({ name }, 201);
      }
      if (name && action === 'restore' && m === 'POST')
        return e.restoreSnapshot(name) ? reply(undefined, 204) : fail(404, `no snapshot '${name}'`);
      if (name && !action && m === 'DELETE')
        return e.deleteSnapshot(name) ? reply(undefined, 204) : fail(404, `no snapshot '${name}'`);
    }
    if (head === 'clock') {
      if (!name && m === 'GET') return reply(clockState(e));
      if (!name && m === 'POST') {
        const b = await bodyOf(request);
        if (b.freeze === true) e.clock.freeze();
        if (b.freeze === false) e.clock.unfreeze();
        if (b.set !== undefined) e.clock.set(b.set as string);
        if (b.advance !== undefined) e.clock.advance(b.advance as string);
        return reply(clockState(e));
      }
      if (name === 'run-until-idle' && m === 'POST') return reply({ ran: e.runUntilIdle(), ...clockState(e) });
    }
    if (head === 'journal') {
      if (!name && m === 'GET') {
        const limit = Number(url.searchParams.get('limit') ?? e.journal.limit);
        return reply(journalEntries(e, Number.isFinite(limit) && limit > 0 ? limit : e.journal.limit));
      }
      if (!name && m === 'DELETE') {
        e.journal.clear();
        return reply(undefined, 204);
      }
      // Step back (or forward) to the world just before or after a journaled request.
      if (name && action === 'restore' && m === 'POST') {
        const entry = e.journal.entries().find((j) => j.seq === Number(name));
        if (!entry) return fail(404, `no journal entry ${name}`);
        e.restore(url.searchParams.get('to') === 'after' ? entry.after : entry.before);
        return reply(undefined, 204);
      }
    }
    if (head === 'faults') {
      if (!name && m === 'GET') return reply(e.faults.list().map((f) => ({ ...f, path: String(f.path) })));
      if (!name && m === 'POST') {
        const b = (await bodyOf(request)) as unknown as FaultRule;
        if (typeof b.path !== 'string') return fail(400, 'path is required');
        return reply(e.faults.add(b), 201);
      }
      if (!name && m === 'DELETE') {
        e.faults.clear();
        return reply(undefined, 204);
      }
      if (name && m === 'DELETE') return e.faults.remove(Number(name)) ? reply(undefined, 204) : fail(404, `no fault ${name}`);
    }
    if (head === 'instance') {
      if (m === 'GET') return reply(e.state.instance);
      if (m === 'PUT' || m === 'POST') {
        e.configure((await bodyOf(request)) as Parameters<Emulator['configure']>[0]);
        return reply(e.state.instance);
      }
    }
    if (head === 'sessions' && m === 'POST') {
      const b = await bodyOf(request);
      return reply({ cookie: e.signIn(String(b.username)) }, 201);
    }
    return fail(404, `unknown control endpoint ${m} ${url.pathname}`);
  } catch (err) {
    if (err instanceof EmulatorError || err instanceof SyntaxError || err instanceof RangeError)
      return fail(400, err.message.replace(/^\[gitlab-emulator\] /, ''));
    throw err;
  }
}
