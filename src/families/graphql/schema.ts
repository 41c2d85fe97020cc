// The served part of GitLab's GraphQL schema, in SDL: names, arguments, nullability, enums and
// descriptions as doc/api/graphql/reference/_index.md and app/graphql/types/** give them.
// A type GitLab has and this file lacks is not served yet (docs/graphql.md lists them).
export const SDL = /* GraphQL */ `
"""Time represented in ISO 8601."""
scalar Time
"""Date represented in ISO 8601."""
scalar Date
"""A global identifier."""
scalar GlobalID
"""Represents non-fractional signed whole numeric values. Since the value may exceed the size of a 32-bit integer, it's encoded as a string."""
scalar BigInt
"""A \`UserID\` is a global ID. It is encoded as a string. An example \`UserID\` is: \`"gid://gitlab/User/1"\`."""
scalar UserID
"""A \`IssueID\` is a global ID. It is encoded as a string. An example \`IssueID\` is: \`"gid://gitlab/Issue/1"\`."""
scalar IssueID
"""A \`MergeRequestID\` is a global ID. It is encoded as a string. An example \`MergeRequestID\` is: \`"gid://gitlab/MergeRequest/1"\`."""
scalar MergeRequestID
"""A \`LabelID\` is a global ID. It is encoded as a string. An example \`LabelID\` is: \`"gid://gitlab/Label/1"\`."""
scalar LabelID
"""A \`MilestoneID\` is a global ID. It is encoded as a string. An example \`MilestoneID\` is: \`"gid://gitlab/Milestone/1"\`."""
scalar MilestoneID
"""A \`NoteableID\` is a global ID. It is encoded as a string. An example \`NoteableID\` is: \`"gid://gitlab/Note/1"\`."""
scalar NoteableID
"""A \`AwardableID\` is a global ID. It is encoded as a string. An example \`AwardableID\` is: \`"gid://gitlab/Awardable/1"\`."""
scalar AwardableID
"""A \`CiPipelineID\` is a global ID. It is encoded as a string. An example \`CiPipelineID\` is: \`"gid://gitlab/Ci::Pipeline/1"\`."""
scalar CiPipelineID
"""A \`WorkItemID\` is a global ID. It is encoded as a string. An example \`WorkItemID\` is: \`"gid://gitlab/WorkItem/1"\`."""
scalar WorkItemID
"""A \`ProjectID\` is a global ID. It is encoded as a string. An example \`ProjectID\` is: \`"gid://gitlab/Project/1"\`."""
scalar ProjectID
"""A \`NamespaceID\` is a global ID. It is encoded as a string. An example \`NamespaceID\` is: \`"gid://gitlab/Namespace/1"\`."""
scalar NamespaceID
"""A \`TodoID\` is a global ID. It is encoded as a string. An example \`TodoID\` is: \`"gid://gitlab/Todo/1"\`."""
scalar TodoID
"""A \`NoteID\` is a global ID. It is encoded as a string. An example \`NoteID\` is: \`"gid://gitlab/Note/1"\`."""
scalar NoteID

"""Information about pagination in a connection."""
type PageInfo {
  """When paginating forwards, the cursor to continue."""
  endCursor: String
  """When paginating forwards, are there more items?"""
  hasNextPage: Boolean!
  """When paginating backwards, are there more items?"""
  hasPreviousPage: Boolean!
  """When paginating backwards, the cursor to continue."""
  startCursor: String
}

"""Values for sorting projects"""
enum Sort {
  """Updated at descending order."""
  updated_desc
  """Updated at ascending order."""
  updated_asc
  """Created at descending order."""
  created_desc
  """Created at ascending order."""
  created_asc
  """Updated at descending order."""
  UPDATED_DESC
  """Updated at ascending order."""
  UPDATED_ASC
  """Created at descending order."""
  CREATED_DESC
  """Created at ascending order."""
  CREATED_ASC
}

"""Values for sorting issues"""
enum IssueSort {
  """Updated at descending order."""
  UPDATED_DESC
  """Updated at ascending order."""
  UPDATED_ASC
  """Created at descending order."""
  CREATED_DESC
  """Created at ascending order."""
  CREATED_ASC
  """Due date by ascending order."""
  DUE_DATE_ASC
  """Due date by descending order."""
  DUE_DATE_DESC
  """Title by ascending order."""
  TITLE_ASC
  """Title by descending order."""
  TITLE_DESC
}

"""Values for sorting merge requests"""
enum MergeRequestSort {
  """Updated at descending order."""
  UPDATED_DESC
  """Updated at ascending order."""
  UPDATED_ASC
  """Created at descending order."""
  CREATED_DESC
  """Created at ascending order."""
  CREATED_ASC
  """Merge time by ascending order."""
  MERGED_AT_ASC
  """Merge time by descending order."""
  MERGED_AT_DESC
  """Title by ascending order."""
  TITLE_ASC
  """Title by descending order."""
  TITLE_DESC
}

"""State of a GitLab issue"""
enum IssueState {
  opened
  closed
  locked
  all
}

"""State of a GitLab issue or merge request"""
enum IssuableState {
  opened
  closed
  locked
  all
}

"""State of a GitLab merge request"""
enum MergeRequestState {
  """Merge request has been merged."""
  merged
  opened
  closed
  locked
  all
}

"""Current state of milestone"""
enum MilestoneStateEnum {
  """Milestone is currently active."""
  active
  """Milestone is closed."""
  closed
}

"""Issue type"""
enum IssueType {
  """Issue issue type"""
  ISSUE
  """Incident issue type"""
  INCIDENT
  """Test Case issue type"""
  TEST_CASE
  """Requirement issue type"""
  REQUIREMENT
  """Task issue type"""
  TASK
  """Ticket issue type"""
  TICKET
  """Objective issue type"""
  OBJECTIVE
  """Key Result issue type"""
  KEY_RESULT
  """Epic issue type"""
  EPIC
}

"""Possible states of a user"""
enum UserState {
  """User is active and can use the system."""
  active
  """User has been blocked by an administrator and cannot use the system."""
  blocked
  """User is no longer active and cannot use the system."""
  deactivated
  """User is blocked, and their contributions are hidden."""
  banned
  """User has been blocked by the system."""
  ldap_blocked
  """User is blocked and pending approval."""
  blocked_pending_approval
}

"""Access level to a resource"""
enum AccessLevelEnum {
  """No access."""
  NO_ACCESS
  """Minimal access."""
  MINIMAL_ACCESS
  """Guest access."""
  GUEST
  """Planner access."""
  PLANNER
  """Reporter access."""
  REPORTER
  """Developer access."""
  DEVELOPER
  """Maintainer access."""
  MAINTAINER
  """Owner access."""
  OWNER
  """Admin access."""
  ADMIN
}

"""Type of a tree entry"""
enum EntryType {
  tree
  blob
  commit
}

"""Represents the access level of a relationship between a User and object that it is related to"""
type AccessLevel {
  """Human-readable display name for the access level."""
  humanAccess: String
  """Integer number of the access level."""
  integerValue: Int
  """Enum string of the the access level."""
  stringValue: AccessLevelEnum
}

"""Metadata about GitLab"""
type Metadata {
  """Enterprise edition."""
  enterprise: Boolean!
  """Revision."""
  revision: String!
  """Version."""
  version: String!
}

"""Core represention of a GitLab user."""
type UserCore {
  """Indicates if the user is active."""
  active: Boolean
  """URL of the user's avatar."""
  avatarUrl: String
  """Indicates if the user is a bot."""
  bot: Boolean!
  """Timestamp of when the user was created."""
  createdAt: Time
  """ID of the user."""
  id: ID!
  """Location of the user."""
  location: String
  """Human-readable name of the user. Returns \`****\` if the user is a project bot and the requester does not have permission to view the project."""
  name: String!
  """Personal namespace of the user."""
  namespace: Namespace
  """User's public email."""
  publicEmail: String
  """State of the user."""
  state: UserState!
  """Username of the user. Unique within the instance of GitLab."""
  username: String!
  """Web path of the user."""
  webPath: String!
  """Web URL of the user."""
  webUrl: String!
  """Projects the user is a member of."""
  projectMemberships(after: String, before: String, first: Int, last: Int): ProjectMemberConnection
  """Group memberships of the user."""
  groupMemberships(after: String, before: String, first: Int, last: Int): GroupMemberConnection
}

"""The connection type for UserCore."""
type UserCoreConnection {
  """Total count of collection."""
  count: Int!
  """A list of edges."""
  edges: [UserCoreEdge]
  """A list of nodes."""
  nodes: [UserCore]
  """Information to aid in pagination."""
  pageInfo: PageInfo!
}

"""An edge in a connection."""
type UserCoreEdge {
  """A cursor for use in pagination."""
  cursor: String!
  """The item at the end of the edge."""
  node: UserCore
}

interface MemberInterface {
  """GitLab::Access level."""
  accessLevel: AccessLevel
  """Date and time the membership was created."""
  createdAt: Time
  """User that authorized membership."""
  createdBy: UserCore
  """Date and time the membership expires."""
  expiresAt: Time
  """ID of the member."""
  id: ID!
  """Date and time the membership was last updated."""
  updatedAt: Time
  """User that is associated with the member object."""
  user: UserCore
}

"""Represents a Group Membership"""
type GroupMember implements MemberInterface {
  accessLevel: AccessLevel
  createdAt: Time
  createdBy: UserCore
  expiresAt: Time
  """Group that a user is a member of."""
  group: Group
  id: ID!
  updatedAt: Time
  user: UserCore
}

"""Represents a Project Membership"""
type ProjectMember implements MemberInterface {
  accessLevel: AccessLevel
  createdAt: Time
  createdBy: UserCore
  expiresAt: Time
  id: ID!
  """Project that User is a member of."""
  project: Project
  updatedAt: Time
  user: UserCore
}

"""The connection type for GroupMember."""
type GroupMemberConnection {
  count: Int!
  edges: [GroupMemberEdge]
  nodes: [GroupMember]
  pageInfo: PageInfo!
}
type GroupMemberEdge {
  cursor: String!
  node: GroupMember
}
"""The connection type for ProjectMember."""
type ProjectMemberConnection {
  count: Int!
  edges: [ProjectMemberEdge]
  nodes: [ProjectMember]
  pageInfo: PageInfo!
}
type ProjectMemberEdge {
  cursor: String!
  node: ProjectMember
}
"""The connection type for MemberInterface."""
type MemberInterfaceConnection {
  count: Int!
  edges: [MemberInterfaceEdge]
  nodes: [MemberInterface]
  pageInfo: PageInfo!
}
type MemberInterfaceEdge {
  cursor: String!
  node: MemberInterface
}

type Namespace {
  """Description of the namespace."""
  description: String
  """Full name of the namespace."""
  fullName: String!
  """Full path of the namespace."""
  fullPath: ID!
  """ID of the namespace."""
  id: ID!
  """Name of the namespace."""
  name: String!
  """Path of the namespace."""
  path: String!
  """Visibility of the namespace."""
  visibility: String
  """Web URL of the namespace."""
  webUrl: String
  """Projects within this namespace."""
  projects(includeSubgroups: Boolean = false, search: String, sort: String = "created_desc", after: String, before: String, first: Int, last: Int): ProjectConnection!
}

"""State of an epic"""
enum EpicState {
  all
  opened
  closed
}

"""Represents an epic"""
type Epic {
  """Author of the epic."""
  author: UserCore!
  """Timestamp of when the epic was closed."""
  closedAt: Time
  """Color of the epic."""
  color: String
  """Indicates if the epic is confidential."""
  confidential: Boolean
  """Timestamp of when the epic was created."""
  createdAt: Time
  """Description of the epic."""
  description: String
  """Due date of the epic."""
  dueDate: Time
  """Group to which the epic belongs."""
  group: Group!
  """ID of the epic."""
  id: ID!
  """Internal ID of the epic."""
  iid: ID!
  """Labels assigned to the epic."""
  labels(after: String, before: String, first: Int, last: Int): LabelConnection
  """Parent epic of the epic."""
  parent: Epic
  """Internal reference of the epic. Returned in shortened format by default."""
  reference(full: Boolean = false): String!
  """Start date of the epic."""
  startDate: Time
  """State of the epic."""
  state: EpicState!
  """Title of the epic."""
  title: String
  """Timestamp of when the epic was updated."""
  updatedAt: Time
  """Web URL of the epic."""
  webUrl: String
}
type EpicConnection {
  count: Int!
  edges: [EpicEdge]
  nodes: [Epic]
  pageInfo: PageInfo!
}
type EpicEdge {
  cursor: String!
  node: Epic
}

type Group {
  """Timestamp of the group creation."""
  createdAt: Time
  """List of descendant groups of this group."""
  descendantGroups(includeParentDescendants: Boolean = true, owned: Boolean = false, search: String, after: String, before: String, first: Int, last: Int): GroupConnection
  """Description of the namespace."""
  description: String
  """Find a single epic."""
  epic(iid: ID): Epic
  """Find epics."""
  epics(iid: ID, iids: [ID!], state: EpicState, search: String, includeDescendantGroups: Boolean = true, after: String, before: String, first: Int, last: Int): EpicConnection
  """Full name of the namespace."""
  fullName: String!
  """Full path of the namespace."""
  fullPath: ID!
  """A membership of a user within this group."""
  groupMembers(search: String, after: String, before: String, first: Int, last: Int): GroupMemberConnection
  """ID of the namespace."""
  id: ID!
  """Labels available on this group."""
  labels(searchTerm: String, includeAncestorGroups: Boolean = false, after: String, before: String, first: Int, last: Int): LabelConnection
  """Milestones of the group."""
  milestones(state: MilestoneStateEnum, searchTitle: String, includeAncestors: Boolean, after: String, before: String, first: Int, last: Int): MilestoneConnection
  """Name of the namespace."""
  name: String!
  """Parent group."""
  parent: Group
  """Path of the namespace."""
  path: String!
  """Projects within this namespace."""
  projects(includeSubgroups: Boolean = false, search: String, sort: String = "created_desc", after: String, before: String, first: Int, last: Int): ProjectConnection!
  """Timestamp of the group's last activity."""
  updatedAt: Time
  """Visibility of the namespace."""
  visibility: String
  """Web URL of the group."""
  webUrl: String!
}

"""The connection type for Group."""
type GroupConnection {
  count: Int!
  edges: [GroupEdge]
  nodes: [Group]
  pageInfo: PageInfo!
}
type GroupEdge {
  cursor: String!
  node: Group
}

"""All pipeline statuses"""
enum PipelineStatusEnum {
  """Pipeline has been created."""
  CREATED
  """A resource (for example, a runner) that the pipeline requires to run is unavailable."""
  WAITING_FOR_RESOURCE
  """Pipeline is preparing to run."""
  PREPARING
  """Pipeline is waiting for an external action."""
  WAITING_FOR_CALLBACK
  """Pipeline has not started running yet."""
  PENDING
  """Pipeline is running."""
  RUNNING
  """At least one stage of the pipeline failed."""
  FAILED
  """Pipeline completed successfully."""
  SUCCESS
  """Pipeline is in the process of canceling."""
  CANCELING
  """Pipeline was canceled before completion."""
  CANCELED
  """Pipeline was skipped."""
  SKIPPED
  """Pipeline needs to be manually started."""
  MANUAL
  """Pipeline is scheduled to run."""
  SCHEDULED
}

enum CiJobStatus {
  """A job that is created."""
  CREATED
  """A job that is waiting for resource."""
  WAITING_FOR_RESOURCE
  """A job that is preparing."""
  PREPARING
  """A job that is waiting for callback."""
  WAITING_FOR_CALLBACK
  """A job that is pending."""
  PENDING
  """A job that is running."""
  RUNNING
  """A job that is success."""
  SUCCESS
  """A job that is failed."""
  FAILED
  """A job that is canceling."""
  CANCELING
  """A job that is canceled."""
  CANCELED
  """A job that is skipped."""
  SKIPPED
  """A job that is manual."""
  MANUAL
  """A job that is scheduled."""
  SCHEDULED
}

type Pipeline {
  """Base SHA of the source branch."""
  beforeSha: String
  """Timestamp of the pipeline's creation."""
  createdAt: Time!
  """Duration of the pipeline in seconds."""
  duration: Int
  """Timestamp of the pipeline's completion."""
  finishedAt: Time
  """ID of the pipeline."""
  id: ID!
  """Internal ID of the pipeline."""
  iid: String!
  """Jobs belonging to the pipeline."""
  jobs(statuses: [CiJobStatus!], retried: Boolean, after: String, before: String, first: Int, last: Int): CiJobConnection
  """Relative path to the pipeline's page."""
  path: String
  """Reference to the branch from which the pipeline was triggered."""
  ref: String
  """SHA of the pipeline's commit."""
  sha(format: String): String
  """Pipeline source."""
  source: String
  """Timestamp when the pipeline was started."""
  startedAt: Time
  """Status of the pipeline (CREATED, WAITING_FOR_RESOURCE, PREPARING, WAITING_FOR_CALLBACK, PENDING, RUNNING, FAILED, SUCCESS, CANCELED, CANCELING, SKIPPED, MANUAL, SCHEDULED)"""
  status: PipelineStatusEnum!
  """Timestamp of the pipeline's last activity."""
  updatedAt: Time!
  """Pipeline user."""
  user: UserCore
}
type PipelineConnection {
  count: Int!
  edges: [PipelineEdge]
  nodes: [Pipeline]
  pageInfo: PageInfo!
}
type PipelineEdge {
  cursor: String!
  node: Pipeline
}

type CiJob {
  """Whether the job is allowed to fail."""
  allowFailure: Boolean!
  """When the job was created."""
  createdAt: Time!
  """Duration of the job in seconds."""
  duration: Int
  """When a job has finished running."""
  finishedAt: Time
  """ID of the job."""
  id: ID
  """Name of the job."""
  name: String
  """Pipeline the job belongs to."""
  pipeline: Pipeline
  """When the job was enqueued and marked as pending."""
  queuedAt: Time
  """Ref name of the job."""
  refName: String
  """Indicates that the job has been retried."""
  retried: Boolean
  """Short SHA1 ID of the commit."""
  shortSha: String!
  """Name of the stage the job belongs to."""
  stageName: String
  """When the job was started."""
  startedAt: Time
  """Status of the job."""
  status: CiJobStatus
  """Tags for the current job."""
  tags: [String!]
  """Web path of the job."""
  webPath: String
}
type CiJobConnection {
  count: Int!
  edges: [CiJobEdge]
  nodes: [CiJob]
  pageInfo: PageInfo!
}
type CiJobEdge {
  cursor: String!
  node: CiJob
}

"""Type of the link: \`other\`, \`runbook\`, \`image\`, \`package\`"""
type Release {
  """User that created the release."""
  author: UserCore
  """Timestamp of when the release was created."""
  createdAt: Time
  """Description (also known as "release notes") of the release."""
  description: String
  """Name of the release."""
  name: String
  """Timestamp of when the release was released."""
  releasedAt: Time
  """Name of the tag associated with the release."""
  tagName: String
  """Indicates the release is an upcoming release."""
  upcomingRelease: Boolean
}
type ReleaseConnection {
  count: Int!
  edges: [ReleaseEdge]
  nodes: [Release]
  pageInfo: PageInfo!
}
type ReleaseEdge {
  cursor: String!
  node: Release
}

"""Values for sorting releases"""
enum ReleaseSort {
  """Created at descending order."""
  CREATED_DESC
  """Created at ascending order."""
  CREATED_ASC
  """Released at by descending order."""
  RELEASED_AT_DESC
  """Released at by ascending order."""
  RELEASED_AT_ASC
}

enum CiVariableType {
  """Env var type."""
  ENV_VAR
  """File type."""
  FILE
}

"""CI/CD variables for a project."""
type CiProjectVariable {
  """Description of the variable."""
  description: String
  """Scope defining the environments that can use the variable."""
  environmentScope: String
  """Indicates whether the variable is hidden."""
  hidden: Boolean
  """ID of the variable."""
  id: ID!
  """Name of the variable."""
  key: String
  """Indicates whether the variable is masked."""
  masked: Boolean
  """Indicates whether the variable is protected."""
  protected: Boolean
  """Indicates whether the variable is raw."""
  raw: Boolean
  """Value of the variable."""
  value: String
  """Type of the variable."""
  variableType: CiVariableType
}
type CiProjectVariableConnection {
  edges: [CiProjectVariableEdge]
  """Maximum amount of project CI/CD variables."""
  limit: Int!
  nodes: [CiProjectVariable]
  pageInfo: PageInfo!
}
type CiProjectVariableEdge {
  cursor: String!
  node: CiProjectVariable
}

"""State of a GitLab work item"""
enum WorkItemState {
  """In open state."""
  OPEN
  """In closed state."""
  CLOSED
}

"""Type of a work item widget"""
enum WorkItemWidgetType {
  ASSIGNEES
  DESCRIPTION
  LABELS
  MILESTONE
  START_AND_DUE_DATE
}

interface WorkItemWidget {
  """Widget type."""
  type: WorkItemWidgetType
}

"""Represents an assignees widget"""
type WorkItemWidgetAssignees implements WorkItemWidget {
  """Assignees of the work item."""
  assignees(after: String, before: String, first: Int, last: Int): UserCoreConnection
  type: WorkItemWidgetType
}

"""Represents a description widget"""
type WorkItemWidgetDescription implements WorkItemWidget {
  """Description of the work item."""
  description: String
  """Whether the description has been edited since the work item was created."""
  edited: Boolean!
  type: WorkItemWidgetType
}

"""Represents the labels widget"""
type WorkItemWidgetLabels implements WorkItemWidget {
  """Labels assigned to the work item."""
  labels(after: String, before: String, first: Int, last: Int): LabelConnection
  type: WorkItemWidgetType
}

"""Represents a milestone widget"""
type WorkItemWidgetMilestone implements WorkItemWidget {
  """Milestone of the work item."""
  milestone: Milestone
  type: WorkItemWidgetType
}

"""Represents a start and due date widget"""
type WorkItemWidgetStartAndDueDate implements WorkItemWidget {
  """Due date of the work item."""
  dueDate: Date
  """Start date of the work item."""
  startDate: Date
  type: WorkItemWidgetType
}

type WorkItemType {
  """Icon name of the work item type."""
  iconName: String
  """Global ID of the work item type."""
  id: ID!
  """Name of the work item type."""
  name: String!
}

type WorkItem {
  """User that created the work item."""
  author: UserCore
  """Timestamp of when the work item was closed."""
  closedAt: Time
  """Indicates the work item is confidential."""
  confidential: Boolean!
  """Timestamp of when the work item was created."""
  createdAt: Time!
  """Global ID of the work item."""
  id: WorkItemID!
  """Internal ID of the work item."""
  iid: String!
  """Internal reference of the work item. Returned in shortened format by default."""
  reference(full: Boolean = false): String!
  """State of the work item."""
  state: WorkItemState!
  """Title of the work item."""
  title: String!
  """Timestamp of when the work item was last updated."""
  updatedAt: Time!
  """URL of the object."""
  webUrl: String
  """Collection of widgets that belong to the work item."""
  widgets: [WorkItemWidget!]
  """Type assigned to the work item."""
  workItemType: WorkItemType!
}
type WorkItemConnection {
  count: Int!
  edges: [WorkItemEdge]
  nodes: [WorkItem]
  pageInfo: PageInfo!
}
type WorkItemEdge {
  cursor: String!
  node: WorkItem
}

enum VisibilityScopesEnum {
  """Snippet is visible only to the snippet creator."""
  private
  """Snippet is visible for any logged in user except external users."""
  internal
  """Snippet can be accessed without any authentication."""
  public
}

"""Represents a snippet entry"""
type Snippet {
  """Owner of the snippet."""
  author: UserCore
  """Timestamp this snippet was created."""
  createdAt: Time!
  """Description of the snippet."""
  description: String
  """File Name of the snippet."""
  fileName: String
  """ID of the snippet."""
  id: ID!
  """Title of the snippet."""
  title: String!
  """Timestamp this snippet was updated."""
  updatedAt: Time!
  """Visibility Level of the snippet."""
  visibilityLevel: VisibilityScopesEnum!
  """Web URL of the snippet."""
  webUrl: String!
}
type SnippetConnection {
  count: Int!
  edges: [SnippetEdge]
  nodes: [Snippet]
  pageInfo: PageInfo!
}
type SnippetEdge {
  cursor: String!
  node: Snippet
}

"""A wiki page"""
type WikiPage {
  """Global ID of the wiki page metadata record."""
  id: ID!
  """URL slug of the wiki page."""
  slug: String
  """Wiki page title."""
  title: String!
  """Web URL of the wiki page."""
  webUrl: String
}

type Project {
  """Indicates the archived status of the project."""
  archived: Boolean
  """List of the project's CI/CD variables."""
  ciVariables(after: String, before: String, first: Int, last: Int): CiProjectVariableConnection
  """Timestamp of the project creation."""
  createdAt: Time
  """Short description of the project."""
  description: String
  """Number of times the project has been forked."""
  forksCount: Int!
  """Full path of the project."""
  fullPath: ID!
  """Group of the project."""
  group: Group
  """URL to connect to the project via HTTPS."""
  httpUrlToRepo: String
  """ID of the project."""
  id: ID!
  """Find a single issue."""
  issue(iid: String): Issue
  """Issues of the project."""
  issues(iid: String, iids: [String!], state: IssuableState, labelName: [String], milestoneTitle: [String], authorUsername: String, assigneeUsernames: [String!], search: String, confidential: Boolean, types: [IssueType!], sort: IssueSort = CREATED_DESC, after: String, before: String, first: Int, last: Int): IssueConnection
  """Timestamp of the project last activity."""
  lastActivityAt: Time
  """Labels available on this project."""
  labels(searchTerm: String, includeAncestorGroups: Boolean = false, after: String, before: String, first: Int, last: Int): LabelConnection
  """Merge requests of the project."""
  mergeRequest(iid: String!): MergeRequest
  """Merge requests of the project."""
  mergeRequests(iids: [String!], sourceBranches: [String!], targetBranches: [String!], state: MergeRequestState, draft: Boolean, labels: [String!], authorUsername: String, sort: MergeRequestSort = CREATED_DESC, after: String, before: String, first: Int, last: Int): MergeRequestConnection
  """Milestones of the project."""
  milestones(state: MilestoneStateEnum, searchTitle: String, includeAncestors: Boolean, after: String, before: String, first: Int, last: Int): MilestoneConnection
  """Name of the project without the namespace."""
  name: String!
  """Name of the project including the namespace."""
  nameWithNamespace: String!
  """Namespace of the project."""
  namespace: Namespace
  """Jobs of a project. This field can only be resolved for one project in any single request."""
  jobs(statuses: [CiJobStatus!], after: String, before: String, first: Int, last: Int): CiJobConnection
  """Number of open issues for the project."""
  openIssuesCount: Int
  """Pipeline of the project. If no arguments are provided, returns the latest pipeline for the head commit on the default branch."""
  pipeline(iid: ID, id: ID, sha: String): Pipeline
  """Pipelines of the project."""
  pipelines(status: PipelineStatusEnum, ref: String, sha: String, source: String, after: String, before: String, first: Int, last: Int): PipelineConnection
  """A single release of the project."""
  release(tagName: String!): Release
  """Releases of the project."""
  releases(sort: ReleaseSort = RELEASED_AT_DESC, after: String, before: String, first: Int, last: Int): ReleaseConnection
  """Path of the project."""
  path: String!
  """Members of the project."""
  projectMembers(search: String, after: String, before: String, first: Int, last: Int): MemberInterfaceConnection
  """Git repository of the project."""
  repository: Repository
  """URL to connect to the project via SSH."""
  sshUrlToRepo: String
  """Snippets of the project."""
  snippets(after: String, before: String, first: Int, last: Int): SnippetConnection
  """Number of times the project has been starred."""
  starCount: Int!
  """List of project topics."""
  topics: [String!]
  """Timestamp of when the project was last updated."""
  updatedAt: Time
  """Visibility of the project."""
  visibility: String
  """Web URL of the project."""
  webUrl: String
  """Work items of the project."""
  workItems(iid: String, iids: [String!], state: IssuableState, search: String, types: [IssueType!], sort: IssueSort = CREATED_DESC, after: String, before: String, first: Int, last: Int): WorkItemConnection
}

"""The connection type for Project."""
type ProjectConnection {
  count: Int!
  edges: [ProjectEdge]
  nodes: [Project]
  pageInfo: PageInfo!
}
type ProjectEdge {
  cursor: String!
  node: Project
}

type Repository {
  """Indicates repository has no visible content."""
  empty: Boolean!
  """Indicates a corresponding Git repository exists on disk."""
  exists: Boolean!
  """Default branch of the repository."""
  rootRef: String
  """Tree of the repository."""
  tree(path: String = "", recursive: Boolean = false, ref: String): Tree
  """Get specific blobs from the repository."""
  blobs(paths: [String!]!, ref: String, after: String, before: String, first: Int, last: Int): RepositoryBlobConnection
}

type RepositoryBlob {
  """ID of the blob."""
  id: ID!
  """Blob mode."""
  mode: String
  """Blob name."""
  name: String
  """OID of the blob."""
  oid: String!
  """Path of the blob."""
  path: String!
  """Raw content of the blob, if the blob is text data."""
  rawTextBlob: String
  """Size (in bytes) of the blob."""
  size: BigInt
  """Web path of the blob."""
  webPath: String
  """Web URL of the blob."""
  webUrl: String
}
type RepositoryBlobConnection {
  edges: [RepositoryBlobEdge]
  nodes: [RepositoryBlob]
  pageInfo: PageInfo!
}
type RepositoryBlobEdge {
  cursor: String!
  node: RepositoryBlob
}

type Tree {
  """Blobs of the tree."""
  blobs(after: String, before: String, first: Int, last: Int): BlobConnection!
  """Trees of the tree."""
  trees(after: String, before: String, first: Int, last: Int): TreeEntryConnection!
}

interface Entry {
  """Flat path of the entry."""
  flatPath: String!
  """ID of the entry."""
  id: ID!
  """Name of the entry."""
  name: String!
  """Path of the entry."""
  path: String!
  """Last commit SHA for the entry."""
  sha: String!
  """Type of tree entry."""
  type: EntryType!
}

type Blob implements Entry {
  flatPath: String!
  id: ID!
  """Blob mode in numeric format."""
  mode: String
  name: String!
  path: String!
  sha: String!
  type: EntryType!
  """Web path of the blob."""
  webPath: String
  """Web URL of the blob."""
  webUrl: String
}

"""Represents a directory"""
type TreeEntry implements Entry {
  flatPath: String!
  id: ID!
  name: String!
  path: String!
  sha: String!
  type: EntryType!
  """Web path for the tree entry (directory)."""
  webPath: String
  """Web URL for the tree entry (directory)."""
  webUrl: String
}

type BlobConnection {
  edges: [BlobEdge]
  nodes: [Blob]
  pageInfo: PageInfo!
}
type BlobEdge {
  cursor: String!
  node: Blob
}
type TreeEntryConnection {
  edges: [TreeEntryEdge]
  nodes: [TreeEntry]
  pageInfo: PageInfo!
}
type TreeEntryEdge {
  cursor: String!
  node: TreeEntry
}

type Label {
  """Background color of the label."""
  color: String!
  """When the label was created."""
  createdAt: Time!
  """Description of the label (Markdown rendered as HTML for caching)."""
  description: String
  """Label ID."""
  id: ID!
  """Text color of the label."""
  textColor: String!
  """Content of the label."""
  title: String!
  """When the label was last updated."""
  updatedAt: Time!
}
type LabelConnection {
  count: Int!
  edges: [LabelEdge]
  nodes: [Label]
  pageInfo: PageInfo!
}
type LabelEdge {
  cursor: String!
  node: Label
}

"""Represents a milestone"""
type Milestone {
  """Timestamp of milestone creation."""
  createdAt: Time!
  """Description of the milestone."""
  description: String
  """Timestamp of the milestone due date."""
  dueDate: Time
  """Expired state of the milestone (a milestone is expired when the due date is past the current date). Defaults to \`false\` when due date has not been set."""
  expired: Boolean!
  """Indicates if milestone is at group level."""
  groupMilestone: Boolean!
  """ID of the milestone."""
  id: ID!
  """Internal ID of the milestone."""
  iid: ID!
  """Indicates if milestone is at project level."""
  projectMilestone: Boolean!
  """Timestamp of the milestone start date."""
  startDate: Time
  """State of the milestone."""
  state: MilestoneStateEnum!
  """Title of the milestone."""
  title: String!
  """Timestamp of last milestone update."""
  updatedAt: Time!
  """Web path of the milestone."""
  webPath: String!
}
type MilestoneConnection {
  count: Int!
  edges: [MilestoneEdge]
  nodes: [Milestone]
  pageInfo: PageInfo!
}
type MilestoneEdge {
  cursor: String!
  node: Milestone
}

type Issue {
  """Assignees of the issue."""
  assignees(after: String, before: String, first: Int, last: Int): UserCoreConnection
  """User that created the issue."""
  author: UserCore!
  """Timestamp of when the issue was closed."""
  closedAt: Time
  """Indicates the issue is confidential."""
  confidential: Boolean!
  """Timestamp of when the issue was created."""
  createdAt: Time!
  """Description of the issue."""
  description: String
  """Indicates discussion is locked on the issue."""
  discussionLocked: Boolean!
  """Number of downvotes the issue has received."""
  downvotes: Int!
  """Due date of the issue."""
  dueDate: Time
  """ID of the issue."""
  id: ID!
  """Internal ID of the issue."""
  iid: String!
  """Labels of the issue."""
  labels(after: String, before: String, first: Int, last: Int): LabelConnection
  """Milestone of the issue."""
  milestone: Milestone
  """All notes on this noteable."""
  notes(after: String, before: String, first: Int, last: Int): NoteConnection!
  """ID of the issue project."""
  projectId: Int!
  """Internal reference of the issue. Returned in shortened format by default."""
  reference(full: Boolean = false): String!
  """State of the issue."""
  state: IssueState!
  """Indicates the currently logged in user is subscribed to the issue."""
  subscribed: Boolean!
  """Title of the issue."""
  title: String!
  """Type of the issue."""
  type: IssueType
  """Timestamp of when the issue was last updated."""
  updatedAt: Time!
  """Number of upvotes the issue has received."""
  upvotes: Int!
  """Number of user notes of the issue."""
  userNotesCount: Int!
  """Web path of the issue."""
  webPath: String!
  """Web URL of the issue."""
  webUrl: String!
}
type IssueConnection {
  count: Int!
  edges: [IssueEdge]
  nodes: [Issue]
  pageInfo: PageInfo!
}
type IssueEdge {
  cursor: String!
  node: Issue
}

type MergeRequest {
  """Assignees of the merge request."""
  assignees(after: String, before: String, first: Int, last: Int): UserCoreConnection
  """User who created this merge request."""
  author: UserCore
  """Timestamp of when the merge request was closed, null if not closed."""
  closedAt: Time
  """Timestamp of when the merge request was created."""
  createdAt: Time!
  """Description of the merge request (Markdown rendered as HTML for caching)."""
  description: String
  """Diff head SHA of the merge request."""
  diffHeadSha: String
  """Indicates if the merge request is a draft."""
  draft: Boolean!
  """ID of the merge request."""
  id: ID!
  """Internal ID of the merge request."""
  iid: String!
  """Labels of the merge request."""
  labels(after: String, before: String, first: Int, last: Int): LabelConnection
  """Timestamp of when the merge request was merged, null if not merged."""
  mergedAt: Time
  """Milestone of the merge request."""
  milestone: Milestone
  """All notes on this noteable."""
  notes(after: String, before: String, first: Int, last: Int): NoteConnection!
  """Alias for target_project."""
  project: Project!
  """ID of the merge request project."""
  projectId: Int!
  """Users from whom a review has been requested."""
  reviewers(after: String, before: String, first: Int, last: Int): UserCoreConnection
  """Source branch of the merge request."""
  sourceBranch: String!
  """State of the merge request."""
  state: MergeRequestState!
  """Target branch of the merge request."""
  targetBranch: String!
  """Title of the merge request."""
  title: String!
  """Timestamp of when the merge request was last updated."""
  updatedAt: Time!
  """Number of user notes of the merge request."""
  userNotesCount: Int
  """Web URL of the merge request."""
  webUrl: String
}
type MergeRequestConnection {
  count: Int!
  edges: [MergeRequestEdge]
  nodes: [MergeRequest]
  pageInfo: PageInfo!
}
type MergeRequestEdge {
  cursor: String!
  node: MergeRequest
}

type Note {
  """User who wrote the note."""
  author: UserCore
  """Content of the note."""
  body: String!
  """Timestamp of the note creation."""
  createdAt: Time!
  """ID of the note."""
  id: NoteID!
  """Indicates if the note is internal."""
  internal: Boolean
  """Indicates whether the note was created by the system or by a user."""
  system: Boolean!
  """Timestamp of the note's last activity."""
  updatedAt: Time!
}
type NoteConnection {
  count: Int!
  edges: [NoteEdge]
  nodes: [Note]
  pageInfo: PageInfo!
}
type NoteEdge {
  cursor: String!
  node: Note
}

type Query {
  """Get information about current user."""
  currentUser: UserCore
  """Testing endpoint to validate the API with"""
  echo(
    """Text to echo back."""
    text: String!
  ): String!
  """Find a group."""
  group(
    """Full path of the project, group, or namespace. For example, \`gitlab-org/gitlab-foss\`."""
    fullPath: ID!
  ): Group
  """Find groups."""
  groups(search: String, sort: String = "name_asc", after: String, before: String, first: Int, last: Int): GroupConnection
  """Find an issue."""
  issue(
    """Global ID of the issue."""
    id: IssueID!
  ): Issue
  """Find a merge request."""
  mergeRequest(
    """Global ID of the merge request."""
    id: MergeRequestID!
  ): MergeRequest
  """Metadata about GitLab."""
  metadata: Metadata
  """Find a namespace."""
  namespace(
    """Full path of the project, group, or namespace. For example, \`gitlab-org/gitlab-foss\`."""
    fullPath: ID!
  ): Namespace
  """Find a wiki page."""
  wikiPage(
    """Wiki page namespace ID."""
    namespaceId: NamespaceID
    """Wiki page project ID."""
    projectId: ProjectID
    """Wiki page slug."""
    slug: String
  ): WikiPage
  """Find a work item."""
  workItem(
    """Global ID of the work item."""
    id: WorkItemID!
  ): WorkItem
  """Find a project."""
  project(
    """Full path of the project, group, or namespace. For example, \`gitlab-org/gitlab-foss\`."""
    fullPath: ID!
  ): Project
  """Find projects visible to the current user."""
  projects(membership: Boolean, search: String, ids: [ID!], fullPaths: [String!], sort: String, after: String, before: String, first: Int, last: Int): ProjectConnection
  """Find a user."""
  user(
    """ID of the User."""
    id: UserID
    """Username of the User."""
    username: String
  ): UserCore
  """Find users."""
  users(ids: [ID!], usernames: [String!], search: String, admins: Boolean = false, after: String, before: String, first: Int, last: Int): UserCoreConnection
}

"""Autogenerated input type of CreateIssue"""
input CreateIssueInput {
  """IDs of users to assign to the issue."""
  assigneeIds: [UserID!]
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Indicates the issue is confidential."""
  confidential: Boolean
  """Description of the issue."""
  description: String
  """Due date of the issue."""
  dueDate: Date
  """IDs of labels to be added to the issue."""
  labelIds: [LabelID!]
  """Labels of the issue."""
  labels: [String!]
  """ID of the milestone to assign to the issue. On update milestone will be removed if set to null."""
  milestoneId: MilestoneID
  """Project full path the issue is associated with."""
  projectPath: ID!
  """Title of the issue."""
  title: String!
  """Type of the issue."""
  type: IssueType
}

"""Autogenerated return type of CreateIssue."""
type CreateIssuePayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Errors encountered during the mutation."""
  errors: [String!]!
  """Issue after mutation."""
  issue: Issue
}

"""State event of a GitLab issue"""
enum IssueStateEvent {
  """Reopens the issue."""
  REOPEN
  """Closes the issue."""
  CLOSE
}

"""Autogenerated input type of UpdateIssue"""
input UpdateIssueInput {
  """IDs of labels to be added to the issue."""
  addLabelIds: [ID!]
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Indicates the issue is confidential."""
  confidential: Boolean
  """Description of the issue."""
  description: String
  """Due date of the issue."""
  dueDate: Date
  """IID of the issue to mutate."""
  iid: String!
  """IDs of labels to be set. Replaces existing issue labels."""
  labelIds: [ID!]
  """Indicates discussion is locked on the issue."""
  locked: Boolean
  """ID of the milestone to assign to the issue. On update milestone will be removed if set to null."""
  milestoneId: ID
  """Project the issue to mutate is in."""
  projectPath: ID!
  """IDs of labels to be removed from the issue."""
  removeLabelIds: [ID!]
  """Close or reopen an issue."""
  stateEvent: IssueStateEvent
  """Title of the issue."""
  title: String
  """Type of the issue."""
  type: IssueType
}

"""Autogenerated return type of UpdateIssue."""
type UpdateIssuePayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Errors encountered during the mutation."""
  errors: [String!]!
  """Issue after mutation."""
  issue: Issue
}

"""Autogenerated input type of IssueSetAssignees"""
input IssueSetAssigneesInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Usernames to assign to the resource. Replaces existing assignees by default."""
  assigneeUsernames: [String!]!
  """Operation to perform. Defaults to REPLACE."""
  operationMode: MutationOperationMode = REPLACE
  """IID of the issue to mutate."""
  iid: String!
  """Project the issue to mutate is in."""
  projectPath: ID!
}

"""Autogenerated return type of IssueSetAssignees."""
type IssueSetAssigneesPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Errors encountered during execution of the mutation."""
  errors: [String!]!
  """Issue after mutation."""
  issue: Issue
}

"""Autogenerated input type of IssueSetConfidential"""
input IssueSetConfidentialInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Whether or not to set the issue as a confidential."""
  confidential: Boolean!
  """IID of the issue to mutate."""
  iid: String!
  """Project the issue to mutate is in."""
  projectPath: ID!
}

"""Autogenerated return type of IssueSetConfidential."""
type IssueSetConfidentialPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Errors encountered during execution of the mutation."""
  errors: [String!]!
  """Issue after mutation."""
  issue: Issue
}

"""Autogenerated input type of IssueSetLocked"""
input IssueSetLockedInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Whether or not to lock discussion on the issue."""
  locked: Boolean!
  """IID of the issue to mutate."""
  iid: String!
  """Project the issue to mutate is in."""
  projectPath: ID!
}

"""Autogenerated return type of IssueSetLocked."""
type IssueSetLockedPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Errors encountered during execution of the mutation."""
  errors: [String!]!
  """Issue after mutation."""
  issue: Issue
}

"""Autogenerated input type of IssueSetSubscription"""
input IssueSetSubscriptionInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Desired state of the subscription."""
  subscribedState: Boolean!
  """IID of the issue to mutate."""
  iid: String!
  """Project the issue to mutate is in."""
  projectPath: ID!
}

"""Autogenerated return type of IssueSetSubscription."""
type IssueSetSubscriptionPayload {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Errors encountered during execution of the mutation."""
  errors: [String!]!
  """Issue after mutation."""
  issue: Issue
}

"""Autogenerated input type of IssueSetDueDate"""
input IssueSetDueDateInput {
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Desired due date for the issue. Due date is removed if null."""
  dueDate: Time
  """IID of the issue to mutate."""
  iid: String!
  """Project the issue to mutate is in."""
  projectPath: ID!
}

"""Autogenerated return type of IssueSetDueDate."""
type IssueSetDueDatePayload {
  clientMutationId: String
  errors: [String!]!
  issue: Issue
}

"""Autogenerated input type of CreateNote"""
input CreateNoteInput {
  """Content of the note."""
  body: String!
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Internal flag for a note. Default is false."""
  internal: Boolean
  """Global ID of the resource to add a note to."""
  noteableId: NoteableID!
}

"""Autogenerated return type of CreateNote."""
type CreateNotePayload {
  clientMutationId: String
  errors: [String!]!
  """Note after mutation."""
  note: Note
}

"""An emoji awarded by a user"""
type AwardEmoji {
  """Emoji name."""
  name: String!
  """User who awarded the emoji."""
  user: UserCore!
}

"""Autogenerated input type of AwardEmojiAdd"""
input AwardEmojiAddInput {
  """Global ID of the awardable resource."""
  awardableId: AwardableID!
  """A unique identifier for the client performing the mutation."""
  clientMutationId: String
  """Emoji name."""
  name: String!
}

"""Autogenerated return type of AwardEmojiAdd."""
type AwardEmojiAddPayload {
  """Emoji reactions after mutation."""
  awardEmoji: AwardEmoji
  clientMutationId: String
  errors: [String!]!
}

"""The state of a to-do item"""
enum TodoStateEnum {
  """State of the todo is pending."""
  pending
  """State of the todo is done."""
  done
}

"""Representing a to-do entry"""
type Todo {
  """Action of the to-do item."""
  action: String!
  """Timestamp the to-do item was created."""
  createdAt: Time!
  """ID of the to-do item."""
  id: ID!
  """State of the to-do item."""
  state: TodoStateEnum!
}

"""Autogenerated input type of TodoMarkDone"""
input TodoMarkDoneInput {
  clientMutationId: String
  """Global ID of the to-do item to mark as done."""
  id: TodoID!
}

"""Autogenerated return type of TodoMarkDone."""
type TodoMarkDonePayload {
  clientMutationId: String
  errors: [String!]!
  """Requested to-do item."""
  todo: Todo!
}

"""Different toggles for changing mutator behavior"""
enum MutationOperationMode {
  """Performs a replace operation."""
  REPLACE
  """Performs an append operation."""
  APPEND
  """Performs a removal operation."""
  REMOVE
}

"""Autogenerated input type of MergeRequestSetDraft"""
input MergeRequestSetDraftInput {
  clientMutationId: String
  """Whether or not to set the merge request as a draft."""
  draft: Boolean!
  """IID of the merge request to mutate."""
  iid: String!
  """Project the merge request to mutate is in."""
  projectPath: ID!
}

"""Autogenerated return type of MergeRequestSetDraft."""
type MergeRequestSetDraftPayload {
  clientMutationId: String
  errors: [String!]!
  """Merge request after mutation."""
  mergeRequest: MergeRequest
}

"""Autogenerated input type of MergeRequestSetLabels"""
input MergeRequestSetLabelsInput {
  clientMutationId: String
  """IID of the merge request to mutate."""
  iid: String!
  """Label IDs to set. Replaces existing labels by default."""
  labelIds: [LabelID!]!
  """Changes the operation mode. Defaults to REPLACE."""
  operationMode: MutationOperationMode
  """Project the merge request to mutate is in."""
  projectPath: ID!
}

"""Autogenerated return type of MergeRequestSetLabels."""
type MergeRequestSetLabelsPayload {
  clientMutationId: String
  errors: [String!]!
  """Merge request after mutation."""
  mergeRequest: MergeRequest
}

"""Autogenerated input type of PipelineRetry"""
input PipelineRetryInput {
  clientMutationId: String
  """ID of the pipeline to mutate."""
  id: CiPipelineID!
}

"""Autogenerated return type of PipelineRetry."""
type PipelineRetryPayload {
  clientMutationId: String
  errors: [String!]!
  """Pipeline after mutation."""
  pipeline: Pipeline
}

"""Autogenerated input type of PipelineCancel"""
input PipelineCancelInput {
  clientMutationId: String
  """ID of the pipeline to mutate."""
  id: CiPipelineID!
}

"""Autogenerated return type of PipelineCancel."""
type PipelineCancelPayload {
  clientMutationId: String
  errors: [String!]!
}

"""Autogenerated input type of UpdateNote"""
input UpdateNoteInput {
  """Content of the note."""
  body: String
  clientMutationId: String
  """Global ID of the note to update."""
  id: NoteID!
}

"""Autogenerated return type of UpdateNote."""
type UpdateNotePayload {
  clientMutationId: String
  errors: [String!]!
  """Note after mutation."""
  note: Note
}

"""Autogenerated input type of DestroyNote"""
input DestroyNoteInput {
  clientMutationId: String
  """Global ID of the note to destroy."""
  id: NoteID!
}

"""Autogenerated return type of DestroyNote."""
type DestroyNotePayload {
  clientMutationId: String
  errors: [String!]!
  """Note after mutation."""
  note: Note
}

"""Autogenerated input type of MergeRequestCreate"""
input MergeRequestCreateInput {
  clientMutationId: String
  """Description of the merge request (Markdown rendered as HTML for caching)."""
  description: String
  """Labels of the merge request."""
  labels: [String!]
  """Project full path the merge request is associated with."""
  projectPath: ID!
  """Indicates if the source branch of the merge request will be deleted after merge."""
  removeSourceBranch: Boolean
  """Source branch of the merge request."""
  sourceBranch: String!
  """Target branch of the merge request."""
  targetBranch: String!
  """Title of the merge request."""
  title: String!
}

"""Autogenerated return type of MergeRequestCreate."""
type MergeRequestCreatePayload {
  clientMutationId: String
  errors: [String!]!
  """Merge request after mutation."""
  mergeRequest: MergeRequest
}

"""Autogenerated input type of MergeRequestAccept"""
input MergeRequestAcceptInput {
  clientMutationId: String
  """Custom merge commit message."""
  commitMessage: String
  """IID of the merge request to mutate."""
  iid: String!
  """Project the merge request to mutate is in."""
  projectPath: ID!
  """HEAD SHA at the time when the merge was requested."""
  sha: String!
  """Should the source branch be removed."""
  shouldRemoveSourceBranch: Boolean
  """Squash commits on the source branch before merge."""
  squash: Boolean = false
}

"""Autogenerated return type of MergeRequestAccept."""
type MergeRequestAcceptPayload {
  clientMutationId: String
  errors: [String!]!
  """Merge request after mutation."""
  mergeRequest: MergeRequest
}

type Mutation {
  awardEmojiAdd(
    """Parameters for AwardEmojiAdd"""
    input: AwardEmojiAddInput!
  ): AwardEmojiAddPayload
  createIssue(
    """Parameters for CreateIssue"""
    input: CreateIssueInput!
  ): CreateIssuePayload
  createNote(
    """Parameters for CreateNote"""
    input: CreateNoteInput!
  ): CreateNotePayload
  destroyNote(
    """Parameters for DestroyNote"""
    input: DestroyNoteInput!
  ): DestroyNotePayload
  issueSetAssignees(
    """Parameters for IssueSetAssignees"""
    input: IssueSetAssigneesInput!
  ): IssueSetAssigneesPayload
  issueSetConfidential(
    """Parameters for IssueSetConfidential"""
    input: IssueSetConfidentialInput!
  ): IssueSetConfidentialPayload
  issueSetDueDate(
    """Parameters for IssueSetDueDate"""
    input: IssueSetDueDateInput!
  ): IssueSetDueDatePayload
  issueSetLocked(
    """Parameters for IssueSetLocked"""
    input: IssueSetLockedInput!
  ): IssueSetLockedPayload
  issueSetSubscription(
    """Parameters for IssueSetSubscription"""
    input: IssueSetSubscriptionInput!
  ): IssueSetSubscriptionPayload
  mergeRequestAccept(
    """Parameters for MergeRequestAccept"""
    input: MergeRequestAcceptInput!
  ): MergeRequestAcceptPayload
  mergeRequestCreate(
    """Parameters for MergeRequestCreate"""
    input: MergeRequestCreateInput!
  ): MergeRequestCreatePayload
  mergeRequestSetDraft(
    """Parameters for MergeRequestSetDraft"""
    input: MergeRequestSetDraftInput!
  ): MergeRequestSetDraftPayload
  mergeRequestSetLabels(
    """Parameters for MergeRequestSetLabels"""
    input: MergeRequestSetLabelsInput!
  ): MergeRequestSetLabelsPayload
  pipelineCancel(
    """Parameters for PipelineCancel"""
    input: PipelineCancelInput!
  ): PipelineCancelPayload
  pipelineRetry(
    """Parameters for PipelineRetry"""
    input: PipelineRetryInput!
  ): PipelineRetryPayload
  todoMarkDone(
    """Parameters for TodoMarkDone"""
    input: TodoMarkDoneInput!
  ): TodoMarkDonePayload
  updateIssue(
    """Parameters for UpdateIssue"""
    input: UpdateIssueInput!
  ): UpdateIssuePayload
  updateNote(
    """Parameters for UpdateNote"""
    input: UpdateNoteInput!
  ): UpdateNotePayload
}
`;
