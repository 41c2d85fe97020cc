// The one list of families. The empty world, the fixture format, the router, the seed phases
// and the task table are all derived from it (the world's and the fixture's types from each
// family's own declaration, world.ts): adding a family is a new folder and one line here.
import { applicationSettingsFamily } from './application-settings/index.js';
import { archives } from './archives/index.js';
import { avatars } from './avatars/index.js';
import { badges } from './badges/index.js';
import { boards } from './boards/index.js';
import { branches } from './branches/index.js';
import { broadcastMessages } from './broadcast-messages/index.js';
import { ci } from './ci/index.js';
import { commits } from './commits/index.js';
import { customAttributes } from './custom-attributes/index.js';
import { deployKeys } from './deploy-keys/index.js';
import { draftNotes } from './draft-notes/index.js';
import { deployTokens } from './deploy-tokens/index.js';
import { events } from './events/index.js';
import { externalStatusChecks } from './external-status-checks/index.js';
import { files } from './files/index.js';
import { forks } from './forks/index.js';
import { featureFlags } from './feature-flags/index.js';
import { features } from './features/index.js';
import { geo } from './geo/index.js';
import { groupImportExport } from './group-import-export/index.js';
import { groups } from './groups/index.js';
import { hooks } from './hooks/index.js';
import { groupProtectedBranches } from './group-protected-branches/index.js';
import { housekeeping } from './housekeeping/index.js';
import { instance } from './instance/index.js';
import { graphqlFamily } from './graphql/index.js';
import { markdown } from './markdown/index.js';
import { memberRoles } from './member-roles/index.js';
import { members } from './members/index.js';
import { mergeRequests } from './merge-requests/index.js';
import { mergeTrains } from './merge-trains/index.js';
import { epics } from './epics/index.js';
import { epicIssuesFamily } from './epic-issues/index.js';
import { integrations } from './integrations/index.js';
import { issuables } from './issuables/index.js';
import { issues } from './issues/index.js';
import { jobTokenScope } from './job-token-scope/index.js';
import { labels } from './labels/index.js';
import { ldapGroupLinks } from './ldap-group-links/index.js';
import { license } from './license/index.js';
import { milestones } from './milestones/index.js';
import { mirrors } from './mirrors/index.js';
import { storageMoves } from './storage-moves/index.js';
import { namespaces } from './namespaces/index.js';
import { notes } from './notes/index.js';
import { pages } from './pages/index.js';
import { notificationSettings } from './notification-settings/index.js';
import { packages } from './packages/index.js';
import { projects } from './projects/index.js';
import { projectGroups } from './project-groups/index.js';
import { projectStorage } from './project-storage/index.js';
import { pushRules } from './push-rules/index.js';
import { releases } from './releases/index.js';
import { repositories } from './repositories/index.js';
import { scim } from './scim/index.js';
import { search } from './search/index.js';
import { serviceAccounts } from './service-accounts/index.js';
import { sidekiq } from './sidekiq/index.js';
import { snippets } from './snippets/index.js';
import { stars } from './stars/index.js';
import { statisticsFamily } from './statistics/index.js';
import { statuses } from './statuses/index.js';
import { tags } from './tags/index.js';
import { templates } from './templates/index.js';
import { topics } from './topics/index.js';
import { transfers } from './transfers/index.js';
import { uploads } from './uploads/index.js';
import { userProjects } from './user-projects/index.js';
import { users } from './users/index.js';
import { wikis } from './wikis/index.js';

export const FAMILIES = [
  users,
  groups,
  projects,
  namespaces,
  templates,
  repositories,
  branches,
  commits,
  files,
  tags,
  archives,
  releases,
  milestones,
  scim,
  statuses,
  instance,
  graphqlFamily,
  sidekiq,
  license,
  geo,
  applicationSettingsFamily,
  notificationSettings,
  search,
  statisticsFamily,
  epicIssuesFamily,
  userProjects,
  integrations,
  featureFlags,
  features,
  packages,
  ldapGroupLinks,
  memberRoles,
  serviceAccounts,
  groupImportExport,
  markdown,
  uploads,
  members,
  storageMoves,
  labels,
  issuables,
  epics,
  issues,
  mergeRequests,
  ci,
  mergeTrains,
  wikis,
  snippets,
  notes,
  draftNotes,
  events,
  broadcastMessages,
  deployKeys,
  deployTokens,
  badges,
  boards,
  customAttributes,
  jobTokenScope,
  stars,
  housekeeping,
  projectStorage,
  projectGroups,
  pushRules,
  externalStatusChecks,
  mirrors,
  pages,
  transfers,
  avatars,
  topics,
  groupProtectedBranches,
  forks,
  hooks,
] as const;
