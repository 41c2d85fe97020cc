// Epics and iterations of a fixture's groups (premium), in the order given: an epic's parent is
// one given before it.
import { EmulatorError } from '../../core/errors.js';
import type { Infer } from '../../core/schema.js';
import { tget, tvalues } from '../../store/table.js';
import type { Namespace } from '../../store/state.js';
import { fixtureGroupPath, groupWhere, type SeedRun } from '../define.js';
import { castDateLike } from '../issuables/index.js';
import { normalizeColor } from '../labels/index.js';
import { fixtureUserId } from '../users/index.js';
import type { State } from '../world.js';
import { createEpic, createIteration, DEFAULT_EPIC_COLOR } from './rules.js';
import type { epicSchema, epicsGroupSchema, iterationSchema } from './schema.js';

/** An epic of a group (premium). */
export type FixtureEpic = Infer<typeof epicSchema>;

/** An iteration of a group (premium); its state follows its dates. */
export type FixtureIteration = Infer<typeof iterationSchema>;

export type FixtureEpicsPart = Infer<typeof epicsGroupSchema>;

function firstAdmin(state: State, where: string): number {
  for (const u of tvalues(state.users)) if (u.admin) return u.id;
  throw new EmulatorError(`${where} has no author and the fixture no administrator`);
}

export function seedEpics(s: SeedRun): void {
  const groups = s.fixture.groups ?? [];
  if (!groups.some((g) => g.epics?.length || g.iterations?.length)) return;
  s.update((draft) => {
    for (const g of groups) {
      const ns = tget(draft.namespaces, s.handles.groups[fixtureGroupPath(g)]!.id) as Namespace;
      const byTitle = new Map<string, number>();
      for (const fe of g.epics ?? []) {
        const where = `${groupWhere(g)}: epic '${fe.title}'`;
        const state = draft as State;
        const authorId = fe.author ? fixtureUserId(state, fe.author, where) : firstAdmin(state, where);
        const color = normalizeColor(fe.color ?? DEFAULT_EPIC_COLOR);
        if (!color) throw new EmulatorError(`${where} has an invalid color`);
        if (fe.parent !== undefined && !byTitle.has(fe.parent)) throw new EmulatorError(`${where} names unknown parent epic '${fe.parent}'`);
        const epic = createEpic(draft, ns, tget(state.users, authorId)!, {
          title: fe.title, description: fe.description, labels: fe.labels, confidential: fe.confidential, color, state: fe.state,
          startDate: fe.start_date ?? null, dueDate: fe.due_date ?? null, parentId: fe.parent !== undefined ? byTitle.get(fe.parent)! : null,
        }, s.now);
        byTitle.set(fe.title, epic.id);
      }
      for (const fi of g.iterations ?? []) {
        const where = `${groupWhere(g)}: iteration '${fi.title ?? fi.start_date}'`;
        if (castDateLike(fi.start_date) === null || castDateLike(fi.due_date) === null || fi.due_date < fi.start_date) throw new EmulatorError(`${where} needs a start date before its due date`);
        createIteration(draft, ns, { title: fi.title ?? null, description: fi.description, startDate: fi.start_date, dueDate: fi.due_date }, s.now);
      }
    }
  });
}
