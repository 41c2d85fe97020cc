// PUT /groups/:id/epics/:epic_iid (ee/lib/api/epics.rb, Epics::UpdateService): the title,
// description, labels (all of them, or some added and removed), confidentiality, colour, fixed
// dates, parent and state of an epic, with label events for the labels that changed.
import { forbidden, recordNotFound, validationFailed } from '../../core/errors.js';
import { arr, bool, int, str, type Constraint } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { hasGroupRole, isWithin } from '../../policy/access.js';
import { pset } from '../../store/table.js';
import { ACCESS, type Namespace, type User } from '../../store/state.js';
import { group, route } from '../define.js';
import { castDateLike, mentionedUserIds, mentionTodos, recordLabelChange } from '../issuables/index.js';
import { normalizeColor } from '../labels/index.js';
import type { State } from '../world.js';
import { epicEntity } from './entity.js';
import type { Epic } from './records.js';
import { epicById, epicByIid, epicLabelIds, epicVisible, readableEpic } from './rules.js';

/** `admin_epic`: Planners and above. */
const canUpdateEpic = (state: State, user: User | null, g: Namespace, now: number) => hasGroupRole(state, user, g, ACCESS.planner, now);

const FIELDS = [
  'add_labels', 'confidential', 'description', 'due_date_fixed', 'due_date_is_fixed', 'labels', 'parent_id', 'remove_labels',
  'start_date_fixed', 'start_date_is_fixed', 'state_event', 'title', 'color',
];
const AT_LEAST_ONE: Constraint[] = [{ kind: 'at_least_one_of', names: FIELDS }];

export const epicUpdateRoutes = [
  route({
    method: 'PUT', path: '/groups/:id/epics/:epic_iid', tier: 'premium', auth: 'user', scope: group(), constraints: AT_LEAST_ONE,
    params: {
      epic_iid: int().required(), title: str(), description: str(), labels: arr(str(), { commaSeparated: true }), add_labels: arr(str(), { commaSeparated: true }),
      remove_labels: arr(str(), { commaSeparated: true }), confidential: bool(), color: str(), state_event: str().values(['reopen', 'close'] as const),
      start_date_is_fixed: bool(), start_date_fixed: str(), due_date_is_fixed: bool(), due_date_fixed: str(), parent_id: int().nullable(),
    },
    handler: (ctx): Reply => {
      const p = ctx.params;
      const now = ctx.now();
      const epic = epicByIid(ctx.state, ctx.group.id, p.epic_iid);
      if (!epic || !epicVisible(ctx.state, ctx.user, epic, now)) throw recordNotFound();
      if (!canUpdateEpic(ctx.state, ctx.user, ctx.group, now)) throw forbidden();
      if (p.title !== undefined && p.title.trim() === '') throw validationFailed({ title: ["can't be blank"] });
      const color = p.color === undefined ? epic.color : normalizeColor(p.color);
      if (color === null) throw validationFailed({ color: ['must be a valid color code'] });
      let parentId = epic.parentId;
      if (p.parent_id !== undefined) {
        if (p.parent_id === null) parentId = null;
        else {
          const parent = epicById(ctx.state, p.parent_id);
          if (!parent || parent.id === epic.id || !isWithin(ctx.state, ctx.group.id, parent.groupId) || !epicVisible(ctx.state, ctx.user, parent, now)) throw forbidden();
          parentId = parent.id;
        }
      }
      const user = ctx.user!;
      const g = ctx.group;
      const next = ctx.update((draft) => {
        let labelIds = epic.labelIds;
        if (p.labels !== undefined) labelIds = epicLabelIds(draft, g, p.labels, now);
        if (p.remove_labels !== undefined) {
          const gone = new Set(epicLabelIds(draft, g, p.remove_labels, now));
          labelIds = labelIds.filter((id) => !gone.has(id));
        }
        if (p.add_labels !== undefined) labelIds = [...new Set([...labelIds, ...epicLabelIds(draft, g, p.add_labels, now)])];
        const state = p.state_event === 'close' ? 'closed' : p.state_event === 'reopen' ? 'opened' : epic.state;
        const updated: Epic = {
          ...epic,
          title: p.title ?? epic.title,
          description: p.description ?? epic.description,
          confidential: p.confidential ?? epic.confidential,
          color,
          parentId,
          labelIds,
          startDate: p.start_date_is_fixed === false ? null : p.start_date_fixed !== undefined ? castDateLike(p.start_date_fixed) : epic.startDate,
          dueDate: p.due_date_is_fixed === false ? null : p.due_date_fixed !== undefined ? castDateLike(p.due_date_fixed) : epic.dueDate,
          state,
          closedAt: state === epic.state ? epic.closedAt : state === 'closed' ? now : null,
          updatedAt: now,
        };
        pset(draft.epics, g.id, epic.iid, updated);
        // TodoService#update_epic: to-dos for the users a changed description newly mentions.
        if (updated.description !== epic.description) {
          const target = { type: 'Epic' as const, id: epic.id, iid: epic.iid, projectId: null, groupId: g.id };
          mentionTodos(draft, target, user, updated.description, now, (u) => readableEpic(draft as State, u, g, epic.id, now) !== undefined, mentionedUserIds(ctx.state, epic.description));
        }
        recordLabelChange(draft, { type: 'Epic', id: epic.id }, user.id, epic.labelIds, labelIds, now);
        return updated;
      });
      return json(epicEntity(ctx.state, next, ctx, ctx.user, { contextGroupId: g.id }));
    },
  }),
];
