// The fixture's shares: `shared_with_groups` on a group or a project names the invited groups.
import { EmulatorError } from '../../core/errors.js';
import type { Infer } from '../../core/schema.js';
import { accessLevel } from '../../policy/access.js';
import { fixtureGroupPath, fixtureProjectPath, groupWhere, projectWhere, type SeedRun } from '../define.js';
import type { State } from '../world.js';
import { shareWith } from './share-routes.js';
import { tget } from '../../store/table.js';
import type { shareSchema, sharesSchema } from './schema.js';

export type FixtureShare = Infer<typeof shareSchema>;

export type FixtureSharesPart = Infer<typeof sharesSchema>;

export function seedShares(s: SeedRun): void {
  const groups = (s.fixture.groups ?? []).filter((g) => g.shared_with_groups?.length);
  const projects = (s.fixture.projects ?? []).filter((p) => p.shared_with_groups?.length);
  if (!groups.length && !projects.length) return;
  s.update((draft) => {
    const state = draft as State;
    const invited = (share: FixtureShare, where: string) => {
      const entry = tget(state.paths, share.group.toLowerCase());
      const g = entry?.kind === 'namespace' ? tget(state.namespaces, entry.id) : undefined;
      if (!g || g.kind !== 'group') throw new EmulatorError(`${where} is shared with unknown group '${share.group}'`);
      return g.id;
    };
    for (const g of groups) {
      const source = tget(state.namespaces, s.handles.groups[fixtureGroupPath(g)]!.id)!;
      for (const share of g.shared_with_groups ?? []) {
        shareWith(source, invited(share, groupWhere(g)), accessLevel(share.group_access ?? 'developer'), share.expires_at ?? null, s.now)(draft);
      }
    }
    for (const p of projects) {
      const source = tget(state.projects, s.handles.projects[fixtureProjectPath(p)]!.id)!;
      for (const share of p.shared_with_groups ?? []) {
        shareWith(source, invited(share, projectWhere(p)), accessLevel(share.group_access ?? 'developer'), share.expires_at ?? null, s.now)(draft);
      }
    }
  });
}
