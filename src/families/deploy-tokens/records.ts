// A deploy token (app/models/deploy_token.rb): a username and token a project's or a group's
// automation reads its repository or registries with.
/** DeployToken::AVAILABLE_SCOPES, in the order `scopes` lists them. */
export const DEPLOY_TOKEN_SCOPES = [
  'read_repository', 'read_registry', 'write_registry', 'read_package_registry', 'write_package_registry', 'read_virtual_registry', 'write_virtual_registry',
] as const;
export type DeployTokenScope = (typeof DEPLOY_TOKEN_SCOPES)[number];

export interface DeployToken {
  id: number;
  name: string;
  /** Given, or `gitlab+deploy-token-<id>`. */
  username: string;
  token: string;
  scopes: DeployTokenScope[];
  expiresAt: number | null;
  revoked: boolean;
  /** The project (project_type) or group (group_type) it belongs to. */
  projectId: number | null;
  groupId: number | null;
  creatorId: number;
  createdAt: number;
}
