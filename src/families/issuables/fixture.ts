// What the seed phases of issues and merge requests share: a fixture's times and milestone
// titles, read, or refused with a message that names the fixture record.
import { EmulatorError } from '../../core/errors.js';
import type { Project } from '../../store/state.js';
import type { State } from '../world.js';
import { milestoneIdByTitle } from './quick-actions.js';

/** An ISO 8601 time of a fixture; `fallback` when absent. */
export function fixtureTime(raw: string | undefined, fallback: number, where: string): number {
  if (raw === undefined) return fallback;
  const t = Date.parse(raw);
  if (!Number.isFinite(t)) throw new EmulatorError(`${where} has an unreadable time '${raw}'`);
  return t;
}

/** A milestone title of the project or one of its groups. */
export function fixtureMilestoneId(state: State, project: Project, title: string, where: string): number {
  const id = milestoneIdByTitle(state, project, title);
  if (id === null) throw new EmulatorError(`${where} names unknown milestone '${title}'`);
  return id;
}
