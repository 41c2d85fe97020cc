// GitLab's planning types over the world: Epic, and WorkItem for an issue.
import type { Namespace } from '../../store/state.js';
import { tget, tvalues } from '../../store/table.js';
import { epicVisible, type Epic } from '../epics/index.js';
import type { Issue } from '../issues/index.js';
import { labelById, type Label } from '../labels/index.js';
import { Connection, type PageArgs } from './connection.js';
import { GroupNode, IssueNode, LabelNode, dateTime, gid, time, userNode, type Graph } from './model.js';

const TYPE_NAMES: Record<string, [string, number, string]> = {
  issue: ['Issue', 1, 'issue-type-issue'], incident: ['Incident', 2, 'issue-type-incident'], test_case: ['Test Case', 3, 'issue-type-test-case'],
  requirement: ['Requirement', 4, 'issue-type-requirements'], task: ['Task', 5, 'issue-type-task'], ticket: ['Ticket', 9, 'issue-type-issue'],
};

/** An issue as GitLab's work items show it (WorkItem is the same record as Issue). */
export class WorkItemNode {
  readonly __typename = 'WorkItem';
  readonly #issue: IssueNode;
  constructor(g: Graph, readonly i: Issue) {
    this.#issue = new IssueNode(g, i);
  }
  get id() { return gid('WorkItem', this.i.id); }
  get iid() { return String(this.i.iid); }
  get title() { return this.i.title; }
  get state() { return this.i.state === 'closed' ? 'CLOSED' : 'OPEN'; }
  get confidential() { return this.i.confidential; }
  get createdAt() { return time(this.i.createdAt); }
  get updatedAt() { return time(this.i.updatedAt); }
  get closedAt() { return time(this.i.closedAt); }
  get webUrl() { return this.#issue.webUrl.replace('/-/issues/', '/-/work_items/'); }
  reference(args: { full?: boolean }) { return this.#issue.reference(args); }
  author() { return this.#issue.author(); }
  get workItemType() {
    const [name, id, iconName] = TYPE_NAMES[this.i.issueType] ?? [this.i.issueType, 1, 'issue-type-issue'];
    return { id: gid('WorkItems::Type', id), name, iconName };
  }
  widgets() {
    const issue = this.#issue;
    return [
      { __typename: 'WorkItemWidgetDescription', type: 'DESCRIPTION', description: issue.description, edited: false },
      { __typename: 'WorkItemWidgetAssignees', type: 'ASSIGNEES', assignees: (args: PageArgs) => issue.assignees(args) },
      { __typename: 'WorkItemWidgetLabels', type: 'LABELS', labels: (args: PageArgs) => issue.labels(args) },
      { __typename: 'WorkItemWidgetMilestone', type: 'MILESTONE', milestone: () => issue.milestone() },
      { __typename: 'WorkItemWidgetStartAndDueDate', type: 'START_AND_DUE_DATE', startDate: null, dueDate: this.i.dueDate },
    ];
  }
}

export class EpicNode {
  readonly __typename = 'Epic';
  constructor(private g: Graph, readonly e: Epic) {}
  private get ns(): Namespace {
    return tget(this.g.state.namespaces, this.e.groupId)!;
  }
  get id() { return gid('Epic', this.e.id); }
  get iid() { return String(this.e.iid); }
  get title() { return this.e.title; }
  get description() { return this.e.description || null; }
  get state() { return this.e.state; }
  get confidential() { return this.e.confidential; }
  get color() { return this.e.color; }
  get createdAt() { return time(this.e.createdAt); }
  get updatedAt() { return time(this.e.updatedAt); }
  get closedAt() { return time(this.e.closedAt); }
  get startDate() { return dateTime(this.e.startDate); }
  get dueDate() { return dateTime(this.e.dueDate); }
  get webUrl() { return `${this.g.webBase}/groups/${this.ns.fullPath}/-/epics/${this.e.iid}`; }
  reference(args: { full?: boolean }) { return args.full ? `${this.ns.fullPath}&${this.e.iid}` : `&${this.e.iid}`; }
  author() { return userNode(this.g, this.e.authorId)!; }
  group() { return new GroupNode(this.g, this.ns); }
  parent() {
    if (this.e.parentId === null) return null;
    for (const n of tvalues(this.g.state.namespaces)) {
      const own = tget(this.g.state.epics, n.id);
      const p = own ? [...tvalues(own)].find((x) => x.id === this.e.parentId) : undefined;
      if (p) return epicVisible(this.g.state, this.g.user, p, this.g.now) ? new EpicNode(this.g, p) : null;
    }
    return null;
  }
  labels(args: PageArgs) {
    const labels = this.e.labelIds.map((id) => labelById(this.g.state, id)).filter((l): l is Label => !!l);
    return new Connection(labels.map((l) => new LabelNode(l)), args, (n) => n.l.id);
  }
}

