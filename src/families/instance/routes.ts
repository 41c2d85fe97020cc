// The instance: GET /version and /metadata (lib/api/metadata.rb); the application settings are
// their own family's, GraphQL the graphql family's.
import { json } from '../../http/route.js';
import { route } from '../define.js';
import { metadata } from './metadata.js';

export const instanceRoutes = [
  route({ method: 'GET', path: '/metadata', auth: 'user', scopes: ['read_user', 'ai_features'], cacheable: true, handler: (ctx) => json(metadata(ctx.state.instance)) }),
  route({ method: 'GET', path: '/version', auth: 'user', scopes: ['read_user', 'ai_features'], cacheable: true, handler: (ctx) => json(metadata(ctx.state.instance)) }),
];

