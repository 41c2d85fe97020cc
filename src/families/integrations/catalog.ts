// The integrations a project can set up (lib/api/helpers/integrations_helpers.rb), a subset of
// GitLab's with their fields as the API declares them: required ones, and secret ones (passwords,
// tokens, keys), which the answers never show (`api_field_names`).

export interface Field {
  name: string;
  type: 'string' | 'boolean';
  required?: boolean;
  secret?: boolean;
}

export interface IntegrationKind {
  title: string;
  fields: Field[];
}

const s = (name: string, required = false, secret = false): Field => ({ name, type: 'string', required, secret });
const b = (name: string): Field => ({ name, type: 'boolean' });

const NOTIFY = [b('notify_only_broken_pipelines'), s('branches_to_be_notified')];
const CHAT = [s('webhook', true, true), s('username'), s('channel'), ...NOTIFY, s('labels_to_be_notified'), s('labels_to_be_notified_behavior')];

export const INTEGRATION_KINDS: Record<string, IntegrationKind> = {
  asana: { title: 'Asana', fields: [s('api_key', true, true), s('restrict_to_branch')] },
  assembla: { title: 'Assembla', fields: [s('token', true, true), s('subdomain')] },
  bamboo: { title: 'Atlassian Bamboo', fields: [s('bamboo_url', true), b('enable_ssl_verification'), s('build_key', true), s('username', true), s('password', true, true)] },
  bugzilla: { title: 'Bugzilla', fields: [s('new_issue_url', true), s('issues_url', true), s('project_url', true)] },
  buildkite: { title: 'Buildkite', fields: [s('token', true, true), s('project_url', true), b('enable_ssl_verification')] },
  campfire: { title: 'Campfire', fields: [s('token', true, true), s('subdomain'), s('room')] },
  confluence: { title: 'Confluence Workspace', fields: [s('confluence_url', true)] },
  'custom-issue-tracker': { title: 'Custom issue tracker', fields: [s('new_issue_url'), s('issues_url', true), s('project_url', true)] },
  discord: { title: 'Discord Notifications', fields: [s('webhook', true, true), ...NOTIFY] },
  'drone-ci': { title: 'Drone', fields: [s('token', true, true), s('drone_url', true), b('enable_ssl_verification')] },
  'emails-on-push': { title: 'Emails on push', fields: [s('recipients', true), b('disable_diffs'), b('send_from_committer_email'), s('branches_to_be_notified')] },
  'external-wiki': { title: 'External wiki', fields: [s('external_wiki_url', true)] },
  irker: { title: 'irker (IRC gateway)', fields: [s('recipients', true), s('default_irc_uri'), s('server_host'), s('server_port'), b('colorize_messages')] },
  jenkins: { title: 'Jenkins', fields: [s('jenkins_url', true), b('enable_ssl_verification'), s('project_name', true), s('username'), s('password', false, true)] },
  jira: { title: 'Jira', fields: [s('url', true), s('api_url'), s('username'), s('password', true, true), s('jira_auth_type'), s('jira_issue_transition_id'), b('commit_events'), b('merge_requests_events'), b('comment_on_event_enabled')] },
  mattermost: { title: 'Mattermost notifications', fields: CHAT },
  'microsoft-teams': { title: 'Microsoft Teams notifications', fields: [s('webhook', true, true), ...NOTIFY] },
  packagist: { title: 'Packagist', fields: [s('username', true), s('token', true, true), s('server')] },
  'pipelines-email': { title: 'Pipeline status emails', fields: [s('recipients', true), ...NOTIFY] },
  pivotaltracker: { title: 'Pivotal Tracker', fields: [s('token', true, true), s('restrict_to_branch')] },
  pushover: { title: 'Pushover', fields: [s('api_key', true, true), s('user_key', true, true), s('priority', true), s('device'), s('sound')] },
  redmine: { title: 'Redmine', fields: [s('new_issue_url', true), s('project_url', true), s('issues_url', true)] },
  slack: { title: 'Slack notifications', fields: CHAT },
  teamcity: { title: 'JetBrains TeamCity', fields: [s('teamcity_url', true), b('enable_ssl_verification'), s('build_type', true), s('username', true), s('password', true, true)] },
  telegram: { title: 'Telegram', fields: [s('token', true, true), s('room', true), s('thread'), ...NOTIFY] },
  'unify-circuit': { title: 'Unify Circuit', fields: [s('webhook', true, true), ...NOTIFY] },
  'webex-teams': { title: 'Webex Teams', fields: [s('webhook', true, true), ...NOTIFY] },
};

/** The trigger events each integration's row keeps, with the defaults of GitLab's integrations table. */
export const EVENT_DEFAULTS: Record<string, boolean> = {
  commit_events: true,
  push_events: true,
  issues_events: true,
  incident_events: false,
  alert_events: true,
  confidential_issues_events: true,
  merge_requests_events: true,
  tag_push_events: true,
  deployment_events: false,
  note_events: true,
  confidential_note_events: true,
  pipeline_events: true,
  wiki_page_events: true,
  job_events: true,
  comment_on_event_enabled: true,
  vulnerability_events: false,
};
