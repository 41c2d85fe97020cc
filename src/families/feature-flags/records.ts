// Operations::FeatureFlag, its strategies and their scopes, and Operations::FeatureFlags::UserList.

export interface FlagScope {
  id: number;
  environmentScope: string;
}

export interface Strategy {
  id: number;
  name: string;
  parameters: Record<string, unknown>;
  scopes: FlagScope[];
  userListId: number | null;
}

export interface FeatureFlag {
  id: number;
  iid: number;
  projectId: number;
  name: string;
  description: string | null;
  active: boolean;
  strategies: Strategy[];
  createdAt: number;
  updatedAt: number;
}

export interface UserList {
  id: number;
  iid: number;
  projectId: number;
  name: string;
  userXids: string;
  createdAt: number;
  updatedAt: number;
}
