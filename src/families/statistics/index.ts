// GET /application/statistics (lib/api/statistics.rb, Entities::ApplicationStatistics): the
// instance's counts, for administrators, as number_with_delimiter writes them ("1,234"). The
// counts are exact here where GitLab's large tables are estimated.
import { json } from '../../http/route.js';
import { tvalues } from '../../store/table.js';
import { defineFamily, route, type Family } from '../define.js';
import { projectIssues } from '../issues/index.js';
import type { State } from '../world.js';

/** ActionView's number_with_delimiter. */
export const withDelimiter = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const NON_INTERNAL = new Set(['human', 'project_bot', 'service_account']);

function sizes(table: { size: number } | undefined): number {
  return table?.size ?? 0;
}

export function statistics(state: State) {
  let issues = 0;
  let mergeRequests = 0;
  let milestones = 0;
  let groups = 0;
  for (const p of tvalues(state.projects)) {
    for (const _ of projectIssues(state, p.id)) issues++;
  }
  for (const t of tvalues(state.mergeRequests)) mergeRequests += sizes(t);
  for (const t of tvalues(state.projectMilestones)) milestones += sizes(t);
  for (const t of tvalues(state.groupMilestones)) milestones += sizes(t);
  for (const ns of tvalues(state.namespaces)) if (ns.kind === 'group') groups++;
  let notes = 0;
  for (const t of tvalues(state.notes.byNoteable)) notes += sizes(t);
  let sshKeys = 0;
  for (const t of tvalues(state.sshKeys)) sshKeys += sizes(t);
  let activeUsers = 0;
  for (const u of tvalues(state.users)) if (u.state === 'active' && NON_INTERNAL.has(u.userType)) activeUsers++;
  return {
    // No project of the world is a fork.
    forks: withDelimiter(0),
    issues: withDelimiter(issues),
    merge_requests: withDelimiter(mergeRequests),
    notes: withDelimiter(notes),
    snippets: withDelimiter(state.snippets.size),
    ssh_keys: withDelimiter(sshKeys),
    milestones: withDelimiter(milestones),
    users: withDelimiter(state.users.size),
    projects: withDelimiter(state.projects.size),
    groups: withDelimiter(groups),
    active_users: withDelimiter(activeUsers),
  };
}

export const statisticsFamily: Family = defineFamily({
  name: 'statistics',
  routes: [route({ method: 'GET', path: '/application/statistics', auth: 'admin', handler: (ctx) => json(statistics(ctx.state)) })],
});
