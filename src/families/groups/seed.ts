// The groups of a fixture, parents before their subgroups, with their members.
import { EmulatorError, invalidFixture } from '../../core/errors.js';
import type { Infer } from '../../core/schema.js';
import { tget } from '../../store/table.js';
import { setMembership } from '../../store/members.js';
import { groupWhere, type SeedRun } from '../define.js';
import { fixtureMembers } from '../users/index.js';
import { createGroup, validateGroup } from './rules.js';
import type { groupSchema } from './schema.js';

/** A group of a fixture: its own keys (each family adds its part to `FixtureGroup`). */
export type FixtureGroupPart = Infer<typeof groupSchema>;

export function seedGroups(s: SeedRun): void {
  if (!s.fixture.groups?.length) return;
  s.update((draft) => {
    for (const g of s.fixture.groups ?? []) {
      const where = groupWhere(g);
      let parentId: number | null = null;
      if (g.parent) {
        const entry = tget(draft.paths, g.parent.toLowerCase());
        if (entry?.kind !== 'namespace' || tget(draft.namespaces, entry.id)?.kind !== 'group')
          throw new EmulatorError(`${where} names unknown parent group '${g.parent}'`);
        parentId = entry.id;
      }
      const input = { name: g.name ?? g.path, path: g.path, parentId, visibility: g.visibility, description: g.description };
      const errors = validateGroup(draft, input);
      if (Object.keys(errors).length) throw invalidFixture(where, errors);
      const group = createGroup(draft, input, s.now);
      for (const m of fixtureMembers(draft, g.members, s.now, where)) setMembership(draft, group, m);
      s.handles.groups[group.fullPath] = { id: group.id };
    }
  });
}
