// The one list of families. The empty world, the fixture format, the router, the seed phases
// and the task table are all derived from it (the world's and the fixture's types from each
// family's own declaration, world.ts): adding a family is a new folder and one line here.
import { applicationSettingsFamily } from './application-settings/index.js';
import { archives } from './archives/index.js';
import { branches } from './branches/index.js';
import { broadcastMessages } from './broadcast-messages/index.js';
import { ci } from './ci/index.js';
import { commits } from './commits/index.js';
import { events } from './events/index.js';
import { featureFlags } from './feature-flags/index.js';
import { features } from './features/index.js';
import { files } from './files/index.js';
import { geo } from './geo/index.js';
import { groupImportExport } from './group-import-export/index.js';
import { groups } from './groups/index.js';
import { instance } from './instance/index.js';
import { markdown } from './markdown/index.js';
import { memberRoles } from './member-roles/index.js';
import { members } from './members/index.js';
import { mergeRequests } from './merge-requests/index.js';
import { epics } from './epics/index.js';
import { epicIssuesFamily } from './epic-issues/index.js';
import { integrations } from './integrations/index.js';
import { issuables } from './issuables/index.js';
import { issues } from './issues/index.js';
import { labels } from './labels/index.js';
import { ldapGroupLinks } from './ldap-group-links/index.js';
import { license } from './license/index.js';
import { milestones } from './milestones/index.js';
import { storageMoves } from './storage-moves/index.js';
import { namespaces } from './namespaces/index.js';
import { notes } from './notes/index.js';
import { notificationSettings } from './notification-settings/index.js';
import { packages } from './packages/index.js';
import { projects } from './projects/index.js';
import { releases } from './releases/index.js';
import { repositories } from './repositories/index.js';
import { scim } from './scim/index.js';
import { search } from './search/index.js';
import { serviceAccounts } from './service-accounts/index.js';
import { sidekiq } from './sidekiq/index.js';
import { snippets } from './snippets/index.js';
import { statisticsFamily } from './statistics/index.js';
import { statuses } from './statuses/index.js';
import { tags } from './tags/index.js';
import { templates } from './templates/index.js';
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
  wikis,
  snippets,
  notes,
  events,
  broadcastMessages,
] as const;
