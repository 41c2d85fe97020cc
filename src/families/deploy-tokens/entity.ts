// lib/api/entities/deploy_token.rb and deploy_token_with_token.rb.
import { iso } from '../../render/time.js';
import type { DeployToken } from './records.js';
import { isExpired } from './rules.js';

export const deployTokenEntity = (t: DeployToken, now: number) => ({
  id: t.id,
  name: t.name,
  username: t.username,
  expires_at: iso(t.expiresAt),
  scopes: t.scopes,
  revoked: t.revoked,
  expired: isExpired(t, now),
});

export const deployTokenWithToken = (t: DeployToken, now: number) => ({ ...deployTokenEntity(t, now), token: t.token });
