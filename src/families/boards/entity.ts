// lib/api/entities/board.rb and list.rb, with EE's additions (the group; the board's scope and
// the lists' limits where the tier has scoped boards).
import type { Tier } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { basicProjectDetails, type ProjectView } from '../projects/index.js';
import { labelBasic } from '../labels/index.js';
import type { State } from '../world.js';
import type { Board, BoardList } from './records.js';
import { movableLists } from './rules.js';

const scoped = (tier: Tier) => tier !== 'free';

export function listEntity(state: State, l: BoardList) {
  const label = l.labelId === null ? undefined : tget(state.labels, l.labelId);
  const base = { id: l.id, label: label ? labelBasic(label) : null, position: l.position };
  if (!scoped(state.instance.tier)) return base;
  return { ...base, max_issue_count: 0, max_issue_weight: 0, limit_metric: null, assignee: null, milestone: null, iteration: null };
}

export function boardEntity(v: ProjectView, b: Board) {
  const state = v.state;
  const project = b.projectId === null ? undefined : tget(state.projects, b.projectId);
  const group = b.groupId === null ? undefined : tget(state.namespaces, b.groupId);
  const base = {
    id: b.id,
    name: b.name,
    hide_backlog_list: b.hideBacklogList,
    hide_closed_list: b.hideClosedList,
    project: project ? basicProjectDetails(v, project) : null,
    lists: movableLists(state, b).map((l) => listEntity(state, l)),
    group: group ? { id: group.id, web_url: `${v.webBase}/groups/${group.fullPath}`, name: group.name } : null,
  };
  if (!scoped(state.instance.tier)) return base;
  return { ...base, milestone: null, assignee: null, labels: [], weight: b.weight };
}
